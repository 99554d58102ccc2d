"""Hardware adapters. Every pin enters through gpiozero's pin factory, every frame
through a luma device: the same code drives a Pi and the simulator's mock parts."""
