"""The learning lab: instrumented searches and every search compared on one position."""
