"""The asynchronous training mode (config section `async:`): rollout workers and the trainer run at once.

- `queue`: the bounded queue of finished trajectories, tagged with the policy version that sampled them;
- `assembler`: complete K-sample groups out of that queue, stale groups dropped;
- `workers`: the weight lock, the versioned policy, the task feeder and the rollout worker threads;
- `loop`: `AsyncRunner`, the trainer's side: pop groups, update, sync weights, bump the version.
"""
