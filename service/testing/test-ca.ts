// A certificate authority made at run time for tests (never stored, never a binary): a CA certificate and a
// server certificate it signed for the names and addresses a test deployment listens on. Clients trust the
// CA through a CA option (a workspace's CA file, Node's `ca`), never by turning verification off.
// Not used by production code.
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export interface TestCertificate {
  /** PEM of the server certificate (leaf only). */
  cert: string;
  /** PEM (PKCS#8) of its private key. */
  key: string;
}

export interface TestCa {
  /** PEM of the CA certificate: what a client must trust. */
  caPem: string;
  /** A server certificate signed by this CA for these IP addresses and DNS names. */
  issue(names: { ips?: string[]; dns?: string[] }, o?: { notAfter?: Date }): Promise<TestCertificate>;
}

type X509Crypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1]>;
type KeyPair = webcrypto.CryptoKeyPair;

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

const keyPem = async (key: webcrypto.CryptoKey): Promise<string> => {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
};

/** A new CA (ECDSA P-256, valid from an hour ago for a day), named `name`. */
export async function createTestCa(name = 'Assemblyline Test CA'): Promise<TestCa> {
  const crypto = webcrypto as unknown as X509Crypto;
  const caKeys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as KeyPair;
  const notBefore = new Date(Date.now() - 60 * 60_000);
  const caCert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      name: `CN=${name}`,
      notBefore,
      notAfter: new Date(Date.now() + 24 * 60 * 60_000),
      keys: caKeys as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['keys'],
      signingAlgorithm: algorithm,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return {
    caPem: caCert.toString('pem') + '\n',
    issue: async (names, o = {}) => {
      const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as KeyPair;
      const san = [...(names.ips ?? []).map((value) => ({ type: 'ip' as const, value })), ...(names.dns ?? []).map((value) => ({ type: 'dns' as const, value }))];
      const cert = await x509.X509CertificateGenerator.create(
        {
          subject: `CN=${names.dns?.[0] ?? names.ips?.[0] ?? 'test'}`,
          issuer: caCert.subject,
          notBefore,
          notAfter: o.notAfter ?? new Date(Date.now() + 24 * 60 * 60_000),
          publicKey: keys.publicKey,
          signingKey: caKeys.privateKey,
          signingAlgorithm: algorithm,
          extensions: [
            new x509.BasicConstraintsExtension(false, undefined, true),
            new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
            new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
            new x509.SubjectAlternativeNameExtension(san),
            await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
          ],
        },
        crypto,
      );
      return { cert: cert.toString('pem') + '\n', key: await keyPem(keys.privateKey) };
    },
  };
}
