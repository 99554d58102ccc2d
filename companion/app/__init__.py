"""The application: config layers, the one composition root, the one event loop."""
