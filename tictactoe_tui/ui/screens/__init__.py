"""The app's screens: settings, game, results and help (one module each)."""
