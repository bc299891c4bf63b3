"""forgegym Prefect flows: synthesis and training as scheduled, cached, resumable workflows."""
