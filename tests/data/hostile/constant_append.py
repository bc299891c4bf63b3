# what: mutate a module-level list
# expect: contain
# status: violation
# reason: module-level constants are read-only
SEEN = []


def attack(state, path=None, envvar=None):
    SEEN.append(1)
    return len(SEEN)
