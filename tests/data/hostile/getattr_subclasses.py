# what: computed names for the subclasses walk
# expect: contain
# status: violation
# reason: access to attribute '__class__' is not allowed
def attack(state, path=None, envvar=None):
    cls = getattr(state, '__cla' + 'ss__')
    return str(getattr(cls, '__subcla' + 'sses__')())
