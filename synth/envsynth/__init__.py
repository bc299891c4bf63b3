"""Environment synthesis: tool docs -> state schema, tool code, tests, repair, published folder."""
