"""The Textual app: the app, its messages, screens and widgets (the only package that imports
Textual, with the command line above it)."""
