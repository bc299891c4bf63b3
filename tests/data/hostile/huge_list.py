# what: [0] * 10**10
# expect: contain
# status: memory
# reason: MemoryError
def attack(state, path=None, envvar=None):
    return len([0] * 10**10)
