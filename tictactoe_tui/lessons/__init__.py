"""The course's lessons, one TOML file each (read by `play.course`; format: docs/learn.md)."""
