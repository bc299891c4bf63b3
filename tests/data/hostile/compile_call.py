# what: compile new code
# expect: refuse
# reason: 'compile' is not available in the sandbox
def attack(state, path=None, envvar=None):
    code = compile('1', 'x', 'eval')
    return 1
