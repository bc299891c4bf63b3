# what: relative import
# expect: refuse
# reason: relative imports are not allowed
from . import runtime


def attack(state, path=None, envvar=None):
    return 1
