# what: kill the interpreter
# expect: refuse
# reason: 'exit' is not available in the sandbox
def attack(state, path=None, envvar=None):
    exit(0)
