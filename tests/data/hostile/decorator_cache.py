# what: a cache shared across episodes
# expect: refuse
# reason: decorators are not allowed
import functools


@functools.lru_cache(maxsize=None)
def helper(x):
    return x


def attack(state, path=None, envvar=None):
    return helper(1)
