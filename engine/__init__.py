"""Pure-Python rules of the three Topos games. Nothing below this package imports Django."""
