# what: 'a' * 10**10
# expect: contain
# status: memory
# reason: MemoryError
def attack(state, path=None, envvar=None):
    return len('a' * 10**10)
