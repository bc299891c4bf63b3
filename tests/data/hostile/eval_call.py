# what: eval a string
# expect: refuse
# reason: Eval calls are not allowed
def attack(state, path=None, envvar=None):
    return eval("__import__('os').system('touch ' + path)")
