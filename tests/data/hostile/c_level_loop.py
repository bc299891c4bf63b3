# what: a loop inside C code that never checks signals (killed by SIGXCPU)
# expect: contain
# status: timeout
# reason: CPU time limit
import itertools


def attack(state, path=None, envvar=None):
    return any(itertools.repeat(0))
