# what: codecs.open through json's own import
# expect: contain
# status: violation
# reason: json.codecs is not available in the sandbox
import json


def attack(state, path=None, envvar=None):
    json.codecs.open(path, 'w').write('x')
