# what: attribute walk inside an f-string
# expect: refuse
# reason: "__class__" is an invalid attribute name
def attack(state, path=None, envvar=None):
    return f"{state.__class__.__init__.__globals__}"
