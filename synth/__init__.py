"""forgegym synthesis: tool docs -> tested environments -> verifiable tasks."""

__version__ = "0.1.0"
PIPELINE_VERSION = "0.1.0"
