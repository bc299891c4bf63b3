"""Task synthesis: tool graph, walks, DAGs, instantiation, instructions, probes (the reward is synth/verify.py)."""
