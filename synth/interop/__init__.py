"""Interop: serve environments over HTTP, export tasks as datasets, adapt environments to TRL and verifiers.

Modules (import what you need; none of them is imported here, so `import synth.interop` stays cheap):

- `catalog`: find environment folders and their tasks (`EnvCatalog`).
- `prompting`: the agent's system prompt for an environment.
- `sessions`: isolated, idle-reclaimed episodes (`SessionManager`).
- `server`: the FastAPI app (`create_app`); `client`: its Python client (`EnvClient`).
- `export`: tasks and gold trajectories as chat-message datasets (`export_dataset`).
- `trl_adapter`, `verifiers_adapter`: optional trainer integrations (lazy imports).
"""
