# what: a lambda whose default allocates 80 GB
# expect: contain
# status: memory
# reason: MemoryError
def attack(state, path=None, envvar=None):
    f = lambda block=[0] * 10**10: len(block)
    return f()
