# what: classic ''.__class__.__mro__[1].__subclasses__() walk
# expect: refuse
# reason: "__class__" is an invalid attribute name
def attack(state, path=None, envvar=None):
    return [c for c in ''.__class__.__mro__[1].__subclasses__()]
