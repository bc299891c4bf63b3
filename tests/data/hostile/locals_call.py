# what: locals() namespace access
# expect: refuse
# reason: 'locals' is not available in the sandbox
def attack(state, path=None, envvar=None):
    return list(locals())
