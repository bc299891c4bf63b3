# what: drop into a debugger
# expect: refuse
# reason: 'breakpoint' is not available in the sandbox
def attack(state, path=None, envvar=None):
    breakpoint()
