# what: vars() namespace access
# expect: refuse
# reason: 'vars' is not available in the sandbox
def attack(state, path=None, envvar=None):
    return list(vars())
