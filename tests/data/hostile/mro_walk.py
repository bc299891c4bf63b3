# what: ToolError.mro() to reach BaseException and object
# expect: refuse
# reason: attribute 'mro' is not allowed
def attack(state, path=None, envvar=None):
    return str(ToolError.mro()[-1])
