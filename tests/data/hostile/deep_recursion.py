# what: unbounded recursion
# expect: contain
# status: exception
# reason: RecursionError
def down(n):
    return down(n + 1)


def attack(state, path=None, envvar=None):
    return down(0)
