# The parts of gpiozero 2.0.1 the companion uses (see stubs/README.md).
from .devices import Device, GPIODevice
from .exc import (
    BadEventHandler,
    DeviceClosed,
    GPIODeviceError,
    GPIOPinInUse,
    GPIOPinMissing,
    GPIOZeroError,
    PinError,
    PinInvalidPin,
)
from .input_devices import Button, DigitalInputDevice, InputDevice
from .mixins import EventsMixin, HoldMixin
from .output_devices import Buzzer, DigitalOutputDevice, OutputDevice, PWMOutputDevice
from .pins import Factory, Pin, PinInfo

__all__ = [
    "BadEventHandler",
    "Button",
    "Buzzer",
    "Device",
    "DeviceClosed",
    "DigitalInputDevice",
    "DigitalOutputDevice",
    "EventsMixin",
    "Factory",
    "GPIODevice",
    "GPIODeviceError",
    "GPIOPinInUse",
    "GPIOPinMissing",
    "GPIOZeroError",
    "HoldMixin",
    "InputDevice",
    "OutputDevice",
    "PWMOutputDevice",
    "Pin",
    "PinError",
    "PinInfo",
    "PinInvalidPin",
]
