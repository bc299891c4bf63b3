# what: setattr on a function
# expect: refuse
# reason: 'setattr' is not available in the sandbox
def attack(state, path=None, envvar=None):
    setattr(attack, 'x', 1)
