# what: import everything from math
# expect: refuse
# reason: "*" imports are not allowed
from math import *


def attack(state, path=None, envvar=None):
    return pi
