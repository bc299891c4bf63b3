"""Task synthesis: tool graph, walks, DAGs, instantiation, instructions, verification, probes."""
