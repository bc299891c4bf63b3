# what: state.__class__.__bases__
# expect: refuse
# reason: "__class__" is an invalid attribute name
def attack(state, path=None, envvar=None):
    return str(state.__class__.__bases__)
