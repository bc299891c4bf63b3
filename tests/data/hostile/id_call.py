# what: id() makes results differ between processes
# expect: refuse
# reason: 'id' is not available in the sandbox
def attack(state, path=None, envvar=None):
    return id(state)
