// The test script of every request of the contract collection (contract-collection.ts puts `contract`,
// this request's plan and its operation's documented answers, before it). It runs in newman's sandbox:
// pm.test, chai, and jsonSchema (Ajv 6, JSON Schema draft-07: the collection holds draft-07 schemas).
/* global pm, contract */
const AJV = { format: 'full', unknownFormats: ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'] };
const status = pm.response.code;
const kept = (name) => pm.collectionVariables.get(name);
const withDefinitions = (schema) => ({ allOf: [schema], definitions: contract.definitions });

const aim = contract.aim.same ? Number(kept(contract.aim.same)) : contract.aim;
const alternatives = contract.alternatives.filter((a) => a.status === status);
pm.test(`${contract.check}: status ${status}, aimed at ${contract.aim.same ? `${aim} (the first answer)` : aim}`, () => {
  if (aim === '2xx') pm.expect(status).to.be.within(200, 299);
  else pm.expect([aim, ...contract.alternatives.map((a) => a.status)], alternatives[0] && alternatives[0].why).to.include(status);
});
if (contract.check === '304' && status === 200) {
  pm.test('a 200 to If-None-Match carries another ETag', () =>
    pm.expect(pm.response.headers.get('ETag')).to.not.equal(pm.request.headers.get('If-None-Match')),
  );
}

const declared = contract.responses[String(status)] || contract.responses[`${String(status)[0]}XX`] || contract.responses.default;
pm.test(`status ${status} is documented`, () => pm.expect(declared, `documented: ${Object.keys(contract.responses).join(', ')}`).to.be.an('object'));

if (declared) {
  const media = Object.keys(declared.content);
  const text = pm.response.text();
  const type = (pm.response.headers.get('Content-Type') || '').split(';')[0].trim().toLowerCase();
  if (text.length > 0 || media.length > 0) {
    pm.test(`body of the ${status} as documented`, () => {
      if (text.length === 0)
        return pm.expect(
          media.filter((m) => declared.content[m]),
          'the documented body is missing',
        ).to.be.empty;
      const match = media.find((m) => m === type) || media.find((m) => m === '*/*' || (m.endsWith('/*') && type.startsWith(m.slice(0, -1))));
      pm.expect(match, `a ${type || 'untyped'} body; documented: ${media.join(', ') || 'no body'}`).to.be.a('string');
      const schema = declared.content[match];
      if (schema) pm.expect(/json/.test(type) ? pm.response.json() : text).to.have.jsonSchema(withDefinitions(schema), AJV);
    });
  }
  for (const [name, header] of Object.entries(declared.headers)) {
    const value = pm.response.headers.get(name);
    pm.test(`header ${name}: ${value === undefined ? 'absent' : 'valid'}${header.required ? ' (required)' : ''}`, () => {
      if (value === undefined) return pm.expect(header.required, `${name} is required`).to.not.equal(true);
      if (!header.schema) return;
      // A header is text: a number or boolean schema reads it as one.
      const number = /^-?\d+(\.\d+)?$/.test(value) && (header.types.includes('integer') || header.types.includes('number'));
      const boolean = /^(true|false)$/.test(value) && header.types.includes('boolean');
      pm.expect(number ? Number(value) : boolean ? value === 'true' : value).to.have.jsonSchema(withDefinitions(header.schema), AJV);
    });
  }
}

if (contract.keeps.jobId && pm.response.headers.get('X-Job-Id')) pm.collectionVariables.set('jobId', pm.response.headers.get('X-Job-Id'));
if (contract.keeps.etag && status === 200 && pm.response.headers.get('ETag')) pm.collectionVariables.set(contract.keeps.etag, pm.response.headers.get('ETag'));
if (contract.keeps.status && status < 300) pm.collectionVariables.set(contract.keeps.status, String(status));
