"""What people read: the message catalog per language, and screens drawn from the public view."""
