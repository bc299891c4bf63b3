"""The `forgegym` command line. Each subcommand lives in its own module with `register(app, groups)`."""
