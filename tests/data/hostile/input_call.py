# what: read stdin
# expect: refuse
# reason: 'input' is not available in the sandbox
def attack(state, path=None, envvar=None):
    return input()
