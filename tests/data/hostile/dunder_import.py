# what: call __import__ directly
# expect: refuse
# reason: "__import__" is an invalid variable name
def attack(state, path=None, envvar=None):
    __import__('os').system('touch ' + path)
