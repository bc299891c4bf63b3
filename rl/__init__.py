"""forgegym RL: rendering, rollouts, simulated user, judge, ERPO trainer, evaluation."""
