#!/usr/bin/python3
"""Checks of dist/cephadm and dist/kubernetes for test_deploy.sh (issue 41).

  deploy_check.py ceph-spec JSON      (any Ceph release's python3, stdlib
                                       only: it runs in the release chroots)
      Ceph's own parser, as `ceph orch apply` runs it: ServiceSpec.from_json
      (unknown fields are a TypeError there) then validate().  Prints the
      spec's class, its config_json() (what the mgr hands cephadm) and the
      parameters CustomContainerSpec accepts, as JSON; exit 1 with Ceph's
      message if it refuses.
  deploy_check.py cephadm-cmd CEPHADM JSON
      The `podman run` command cephadm (the script CEPHADM, Debian's
      16.2.15) makes for a custom container with config-json JSON, built by
      its own get_container(); nothing is run.
  deploy_check.py k8s FILE...
      Every document of FILE..., field by field: DaemonSet and Service
      against Kubernetes' API schema as python3-kubernetes ships it (its
      models are generated from the Kubernetes 1.22 OpenAPI document), the
      ServiceMonitor and PrometheusRule against the CRD field lists below.
      Unknown fields, wrong types, missing required fields: one line each,
      exit 1.
"""
import json
import sys

# --- prometheus-operator's CRDs: every property of the objects the
# manifests use, from prometheus-operator 0.93.0 (commit 6adcebc5076c),
# example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml
# and monitoring.coreos.com_prometheusrules.yaml (openAPIV3Schema).  A
# field osdhist does not use is ANY: its name is accepted, its value not
# looked at.  DURATION is the CRDs' pattern for interval, scrapeTimeout
# and for.
ANY = object()
DURATION = r'^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$'
RELABEL = {'action': str, 'modulus': int, 'regex': str, 'replacement': str,
           'separator': str, 'sourceLabels': [str], 'targetLabel': str}
ENDPOINT = dict.fromkeys([
    'authorization', 'basicAuth', 'bearerTokenFile', 'bearerTokenSecret',
    'enableHttp2', 'filterRunning', 'followRedirects', 'honorTimestamps',
    'metricRelabelings', 'noProxy', 'oauth2', 'params', 'proxyConnectHeader',
    'proxyFromEnvironment', 'proxyUrl', 'targetPort', 'tlsConfig',
    'trackTimestampsStaleness'], ANY)
ENDPOINT.update({'port': str, 'path': str, 'scheme': ('enum', 'http', 'https', 'HTTP', 'HTTPS'),
                 'interval': ('re', DURATION), 'scrapeTimeout': ('re', DURATION),
                 'honorLabels': bool, 'relabelings': [RELABEL]})
SERVICEMONITOR_SPEC = dict.fromkeys([
    'attachMetadata', 'bodySizeLimit', 'convertClassicHistogramsToNHCB',
    'fallbackScrapeProtocol', 'jobLabel', 'keepDroppedTargets', 'labelLimit',
    'labelNameLengthLimit', 'labelValueLengthLimit', 'nativeHistogramBucketLimit',
    'nativeHistogramMinBucketFactor', 'podTargetLabels', 'sampleLimit',
    'scrapeClass', 'scrapeClassicHistograms', 'scrapeNativeHistograms',
    'scrapeProtocols', 'selectorMechanism', 'serviceDiscoveryRole',
    'targetLabels', 'targetLimit'], ANY)
SERVICEMONITOR_SPEC.update({
    'endpoints': [ENDPOINT], 'selector': 'V1LabelSelector',
    'namespaceSelector': {'any': bool, 'matchNames': [str]},
    ('required',): ['endpoints', 'selector']})
RULE = {'alert': str, 'record': str, 'expr': ('int-or-string',), 'for': ('re', DURATION),
        'keep_firing_for': ('re', DURATION), 'labels': {'*': str},
        'annotations': {'*': str}, ('required',): ['expr']}
GROUP = {'name': str, 'interval': ('re', DURATION), 'query_offset': ('re', DURATION),
         'limit': int, 'labels': {'*': str}, 'partial_response_strategy': str,
         'rules': [RULE], ('required',): ['name']}
CRDS = {
    ('monitoring.coreos.com/v1', 'ServiceMonitor'): SERVICEMONITOR_SPEC,
    ('monitoring.coreos.com/v1', 'PrometheusRule'): {'groups': [GROUP]},
}
# the kinds of the Kubernetes API the manifests use, and their models
CORE = {('apps/v1', 'DaemonSet'): 'V1DaemonSet', ('v1', 'Service'): 'V1Service'}


class Checker:
    def __init__(self):
        import kubernetes.client
        self.k = kubernetes.client
        self.errors = []

    def err(self, path, msg):
        self.errors.append(f'{path}: {msg}')

    def model(self, v, name, path):
        """v against the python3-kubernetes model `name` (its openapi_types
        and attribute_map: the JSON field names of the API schema)."""
        cls = getattr(self.k, name)
        if not isinstance(v, dict):
            return self.err(path, f'not an object ({name})')
        by_json = {j: a for a, j in cls.attribute_map.items()}
        for key, val in v.items():
            if key not in by_json:
                self.err(f'{path}.{key}', f'no such field in {name}')
            else:
                self.typed(val, cls.openapi_types[by_json[key]], f'{path}.{key}')

    def typed(self, v, t, path):
        if t.startswith('list['):
            if not isinstance(v, list):
                return self.err(path, f'not a list ({t})')
            for i, x in enumerate(v):
                self.typed(x, t[5:-1], f'{path}[{i}]')
        elif t.startswith('dict('):
            if not isinstance(v, dict):
                return self.err(path, f'not a map ({t})')
            inner = t[5:-1].split(', ', 1)[1]
            for key, x in v.items():
                self.typed(x, inner, f'{path}.{key}')
        elif t in ('str', 'int', 'bool'):
            ok = {'str': str, 'int': int, 'bool': bool}[t]
            if not isinstance(v, ok) or (t == 'int' and isinstance(v, bool)):
                self.err(path, f'not a {t}: {v!r}')
        elif t == 'object':
            pass    # IntOrString, Quantity: the API parses them itself
        elif t in ('float', 'datetime', 'date'):
            if not isinstance(v, (int, float, str)):
                self.err(path, f'not a {t}: {v!r}')
        else:
            self.model(v, t, path)

    def required(self, doc, name, path):
        """The models' setters refuse None for a required field: build the
        object as the client's deserializer does."""
        try:
            self.k.ApiClient()._ApiClient__deserialize(doc, name)
        except (ValueError, TypeError) as e:
            self.err(path, f'{name}: {e}')

    def crd(self, v, schema, path):
        import re
        if schema is ANY:
            return
        if schema in (str, int, bool):
            if not isinstance(v, schema) or (schema is int and isinstance(v, bool)):
                self.err(path, f'not a {schema.__name__}: {v!r}')
        elif isinstance(schema, str):
            self.model(v, schema, path)
        elif isinstance(schema, list):
            if not isinstance(v, list):
                return self.err(path, 'not a list')
            for i, x in enumerate(v):
                self.crd(x, schema[0], f'{path}[{i}]')
        elif isinstance(schema, tuple):
            if schema[0] == 're' and not (isinstance(v, str) and re.match(schema[1], v)):
                self.err(path, f'not a duration: {v!r}')
            elif schema[0] == 'enum' and v not in schema[1:]:
                self.err(path, f'not one of {schema[1:]}: {v!r}')
            elif schema[0] == 'int-or-string' and not isinstance(v, (int, str)):
                self.err(path, f'neither an integer nor a string: {v!r}')
        elif not isinstance(v, dict):
            self.err(path, 'not an object')
        else:
            for key, x in v.items():
                if key in schema:
                    self.crd(x, schema[key], f'{path}.{key}')
                elif '*' in schema:
                    self.crd(x, schema['*'], f'{path}.{key}')
                else:
                    self.err(f'{path}.{key}', 'no such field in the CRD')
            for key in schema.get(('required',), []):
                if key not in v:
                    self.err(f'{path}.{key}', 'required, missing')

    def document(self, doc, where):
        kind = (doc.get('apiVersion'), doc.get('kind'))
        if kind in CORE:
            self.model(doc, CORE[kind], where)
            self.required(doc, CORE[kind], where)
            self.rules(doc, where)
        elif kind in CRDS:
            self.crd({k: v for k, v in doc.items() if k != 'spec'},
                     {'apiVersion': str, 'kind': str, 'metadata': 'V1ObjectMeta'}, where)
            self.crd(doc.get('spec'), CRDS[kind], f'{where}.spec')
        else:
            self.err(where, f'kind {kind} has no schema here')

    def rules(self, doc, where):
        """Kubernetes' own validation beyond the schema that the manifests
        come near (pkg/apis/core/validation, ValidateSecurityContext)."""
        pod = (doc.get('spec') or {}).get('template', {}).get('spec', {})
        for i, c in enumerate(pod.get('containers', [])):
            sc = c.get('securityContext') or {}
            adds = (sc.get('capabilities') or {}).get('add') or []
            if sc.get('allowPrivilegeEscalation') is False and (
                    sc.get('privileged') or 'CAP_SYS_ADMIN' in adds):
                self.err(f'{where}.spec.template.spec.containers[{i}].securityContext',
                         'allowPrivilegeEscalation false with privileged or CAP_SYS_ADMIN')


def k8s(files):
    import yaml
    c = Checker()
    n = 0
    for f in files:
        with open(f) as fh:
            for i, doc in enumerate(yaml.safe_load_all(fh)):
                if doc is None:
                    continue
                n += 1
                c.document(doc, f'{f}#{i}({doc.get("kind")})')
    for e in c.errors:
        print(e)
    print(f'{n} documents, {len(c.errors)} errors')
    return 1 if c.errors or not n else 0


def ceph_spec(text):
    import inspect
    from ceph.deployment.service_spec import ServiceSpec, CustomContainerSpec
    try:
        spec = ServiceSpec.from_json(json.loads(text))
    except Exception as e:      # SpecValidationError, with Ceph's own words
        print(f'refused: {type(e).__name__}: {e}')
        return 1
    params = list(inspect.signature(CustomContainerSpec.__init__).parameters)[1:]
    print(json.dumps({'class': type(spec).__name__, 'config_json': spec.config_json(),
                      'service_name': spec.service_name(), 'accepts': params}))
    return 0


def cephadm_cmd(path, text):
    import argparse
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader('cephadm', path)
    mod = importlib.util.module_from_spec(importlib.util.spec_from_loader('cephadm', loader))
    loader.exec_module(mod)
    ctx = mod.CephadmContext()
    ctx.set_args(argparse.Namespace(config_json=text, image=json.loads(text)['image'],
                                    allow_ptrace=False, no_hosts=False))
    # the engine as cephadm finds it on a host, without asking a binary
    engine = mod.Podman.__new__(mod.Podman)
    engine.path, engine._version = '/usr/bin/podman', (4, 3, 1)
    ctx.container_engine = engine
    c = mod.get_container(ctx, '00000000-0000-4000-8000-000000000000', 'container', 'osdhist.host')
    print(json.dumps(c.run_cmd()))
    return 0


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'ceph-spec':
        sys.exit(ceph_spec(args[0]))
    if cmd == 'cephadm-cmd':
        sys.exit(cephadm_cmd(args[0], args[1]))
    if cmd == 'k8s':
        sys.exit(k8s(args))
    sys.exit(f'deploy_check.py: unknown command {cmd}')
