import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  BasicConstraints,
  Certificate,
  ExtendedKeyUsage,
  Extension,
  Extensions,
  GeneralName,
  id_ce_basicConstraints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  id_ce_subjectAltName,
  id_kp_serverAuth,
  KeyUsage,
  KeyUsageFlags,
  Name,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';
import { isIP } from 'node:net';

/** The clients trust exactly this certificate (their sole CA), so it only has to carry the names they connect to. */
export interface SelfSigned {
  keyPem: string;
  certPem: string;
}

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const COMMON_NAME = '2.5.4.3';

export function createSelfSigned(commonName: string, altNames: string[], days: number): SelfSigned {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const algorithm = new AlgorithmIdentifier({ algorithm: ECDSA_WITH_SHA256 });
  const name = new Name([
    new RelativeDistinguishedName([
      new AttributeTypeAndValue({ type: COMMON_NAME, value: new AttributeValue({ utf8String: commonName }) }),
    ]),
  ]);
  const serial = randomBytes(16);
  // Positive, and never a leading zero byte: DER integers are minimal.
  serial[0] = (serial[0] & 0x7f) | 0x40;
  const names = [...new Set(altNames)].map((entry) => new GeneralName(isIP(entry) ? { iPAddress: entry } : { dNSName: entry }));
  const tbsCertificate = new TBSCertificate({
    version: Version.v3,
    serialNumber: arrayBuffer(serial),
    signature: algorithm,
    issuer: name,
    subject: name,
    validity: new Validity({ notBefore: new Date(Date.now() - 5 * 60_000), notAfter: new Date(Date.now() + days * 86_400_000) }),
    subjectPublicKeyInfo: AsnConvert.parse(publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo),
    extensions: new Extensions([
      extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: false })),
      extension(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature)),
      extension(id_ce_extKeyUsage, false, new ExtendedKeyUsage([id_kp_serverAuth])),
      extension(id_ce_subjectAltName, false, new SubjectAlternativeName(names)),
    ]),
  });
  const signatureValue = sign('sha256', Buffer.from(AsnConvert.serialize(tbsCertificate)), privateKey);
  const der = Buffer.from(
    AsnConvert.serialize(new Certificate({ tbsCertificate, signatureAlgorithm: algorithm, signatureValue: arrayBuffer(signatureValue) })),
  );
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd();
  return {
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certPem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
  };
}

function extension(extnID: string, critical: boolean, value: object): Extension {
  return new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
}

function arrayBuffer(bytes: Buffer): ArrayBuffer {
  return new Uint8Array(bytes).buffer;
}
