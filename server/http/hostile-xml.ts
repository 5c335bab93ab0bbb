/**
 * The checks every SAML message gets before an XML parser builds it, on both sides of the development IdP and at the
 * app's Assertion Consumer Service. SAML messages never carry a document type: a DOCTYPE is what entity expansion
 * ("billion laughs") and external entities need, so one is refused outright rather than parsed carefully.
 */

/** Larger than any honest AuthnRequest or Response (the sso plugin refuses responses over 256 KB too). */
export const MAX_SAML_XML_BYTES = 256 * 1024;

/**
 * Why `xml` is refused, or null when it may be handed to samlify. Whether it is well-formed is samlify's parser's to
 * say: samlify's DOM parser treats every XML error as fatal.
 */
export function hostileXmlReason(xml: string): string | null {
  if (Buffer.byteLength(xml, "utf8") > MAX_SAML_XML_BYTES) return `larger than ${MAX_SAML_XML_BYTES / 1024} KB`;
  // Any spelling of the declaration (the keywords are case-sensitive in XML, but a lenient parser may not be).
  if (/<!\s*(DOCTYPE|ENTITY)/i.test(xml)) return "it declares a document type or entities";
  if (xml.includes("\0")) return "it contains a NUL character";
  if (!/^\uFEFF?\s*</.test(xml)) return "it is not XML";
  return null;
}

/**
 * samlify's schema validator (`setSchemaValidator`): the same checks, answered as samlify expects (a resolved
 * promise for a document it may parse, a rejection otherwise). It works offline and needs no Java, unlike the XSD
 * validators samlify's documentation lists; the structure is checked by samlify's parser and by the sso plugin.
 */
export const safeSamlXmlValidator = {
  async validate(xml: string): Promise<string> {
    const reason = hostileXmlReason(xml);
    if (reason) throw new Error(`ERR_INVALID_XML: ${reason}`);
    return "SUCCESS_VALIDATE_XML";
  },
};
