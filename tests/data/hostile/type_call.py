# what: type() to build classes
# expect: refuse
# reason: 'type' is not available in the sandbox
def attack(state, path=None, envvar=None):
    return type('X', (), {})
