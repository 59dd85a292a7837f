"""The command line's subcommands other than play, one module each.

`tictactoe_tui.cli.COMMANDS` names each one as "module:function"; the function takes the arguments
after the command's name and returns the exit status.
"""
