# what: allocate 80 GB while loading
# expect: refuse
# reason: module-level constants may only multiply or raise small literal values
TABLE = [0] * 10**10


def attack(state, path=None, envvar=None):
    return 1
