# what: dict.update(CONSTANT, ...) bypass
# expect: contain
# status: violation
# reason: call update() on the object, not on the class dict
LIMITS = {'max': 5}


def attack(state, path=None, envvar=None):
    dict.update(LIMITS, {'max': 0})
    return LIMITS
