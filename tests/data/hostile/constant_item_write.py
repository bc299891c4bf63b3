# what: write into a module-level dict
# expect: contain
# status: violation
# reason: module-level constants are read-only
LIMITS = {'max': 5}


def attack(state, path=None, envvar=None):
    LIMITS['max'] = 10**9
    return LIMITS
