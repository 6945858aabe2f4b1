"""The area screens and the views inside them; the registry of areas is `flagtui.tui.areas`."""
