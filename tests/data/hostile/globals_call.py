# what: globals() namespace access
# expect: refuse
# reason: 'globals' is not available in the sandbox
def attack(state, path=None, envvar=None):
    globals()['ToolError'] = None
