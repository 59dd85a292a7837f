"""The course's lessons, one TOML file each (read by `play.course`; the format is in docs/learn.md)."""
