import { acceptLanguage } from '../../http/qualityValues'
import { languageOf, negotiateLanguage, type Language } from '../../../src/ui/languages'

/**
 * The words of the authorization server's consent page, in the pay page's and the dashboard's 16
 * languages: what an agent or a CLI asks to do, in the words the person uses, before they allow it.
 * Values (the client's name, the studio, the origin) are given as HTML already escaped; the words
 * here are plain text with no markup.
 */
export type ConsentStrings = {
  lang: Language
  title: string
  asks: (client: string, studio: string, resource: string) => string
  returnsTo: (origin: string) => string
  yourStudio: string
  whereLegend: string
  studio: string
  network: string
  chain: (name: string, chainId: string) => string
  whatLegend: string
  writesUnticked: string
  scopes: Record<string, string>
  limitsLegend: string
  limitsIntro: string
  /** The largest invoice's label: an amount of the token named by its symbol. */
  maxInvoice: (symbol: string) => string
  perDay: string
  allow: string
  deny: string
  language: string
  /** The pages of a sign-in that stops before or beside the consent: each a title and what to do. */
  signIn: {
    /** The sign-in's cookie, its state or its grant is gone (too old, another browser, used already). */
    expired: { title: string; message: string }
    /** The identity provider did not give a token for the code it sent back. */
    failed: { title: string; message: string }
    /** Signed in at the identity provider, but never at the dashboard: this server has no such user. */
    unknownAccount: { title: string; message: string }
    /** The interaction asks for neither sign-in nor consent. */
    nothingToDo: { title: string; message: string }
    /** The authorization server (oidc-provider) refused the request itself; its error is shown beside. */
    refused: { title: string; message: string }
    /** The label of the technical detail: the error's code and words, in English as the software writes them. */
    detail: string
  }
  /** The pages a person meets when the form cannot be taken as sent: each a title and what to do. */
  refusals: {
    noStudio: { title: string; message: string }
    chooseStudio: { title: string; message: string }
    chooseNetwork: { title: string; message: (networks: string) => string }
    limitsNeeded: { title: string; message: string }
    /** A largest invoice that is not an amount of the token: its symbol, its decimals, the most allowed (written for the language). */
    largestInvoice: { title: string; message: (symbol: string, decimals: string, most: string) => string }
    /** Invoice writes asked for while the studio's server signer is not active; `problem` is the signer's state, in English. */
    signerInactive: { title: string; message: (problem: string) => string }
  }
}

const en: ConsentStrings = {
  lang: 'en',
  title: 'Allow access to your studio',
  asks: (client, studio, resource) => `${client} asks to act for you on ${studio} through ${resource}.`,
  returnsTo: (origin) => `After you answer, you go back to ${origin}. Allow only if you started this from there.`,
  yourStudio: 'your studio',
  whereLegend: 'Where it may act',
  studio: 'Studio',
  network: 'Network',
  chain: (name, chainId) => `${name} (chain ${chainId})`,
  whatLegend: 'What it may do',
  writesUnticked: 'Anything that changes your studio is unticked: tick it only if this app should do it.',
  scopes: {
    'invoice:read': 'Read your invoices and their share links',
    'invoice:write': 'Issue and cancel invoices, and email them to your customers',
    'customer:read': 'Read your customers',
    'customer:write': 'Create and change customers',
    'dashboard:read': "Read your studio's balance and statistics",
  },
  limitsLegend: 'Limits on the invoices it issues',
  limitsIntro: 'It can never issue an invoice above the largest amount, nor more invoices than this in any 24 hours. You can revoke it at any time in the dashboard.',
  maxInvoice: (symbol) => `Largest invoice, in ${symbol}`,
  perDay: 'Invoices in any 24 hours',
  allow: 'Allow',
  deny: 'Deny',
  language: 'Language',
  signIn: {
    expired: { title: 'Sign-in expired', message: 'This sign-in is no longer current: start again.' },
    failed: { title: 'Sign-in failed', message: 'The identity provider did not sign you in: start again.' },
    unknownAccount: { title: 'Unknown account', message: 'Sign in to the dashboard once first, so this server knows your account.' },
    nothingToDo: { title: 'Sign-in', message: 'Nothing to do here: start again.' },
    refused: { title: 'Sign-in error', message: 'This sign-in cannot go on: start it again from the app that sent you here.' },
    detail: 'Technical detail',
  },
  refusals: {
    noStudio: { title: 'No studio', message: 'This account owns no studio yet: set one up in the dashboard first.' },
    chooseStudio: { title: 'Choose a studio', message: 'Choose one of your studios: go back and pick it.' },
    chooseNetwork: { title: 'Choose a network', message: (networks) => `Choose one of this deployment's networks (${networks}): go back and pick it.` },
    limitsNeeded: { title: 'Limits needed', message: 'Issuing invoices needs a number of invoices a day (1 to 10000): go back and set it.' },
    largestInvoice: { title: 'Largest invoice', message: (symbol, decimals, most) => `The largest invoice is an amount in ${symbol} above 0, such as 1000 or 1000.50, with at most ${decimals} decimals and at most ${most} ${symbol}: go back and correct it.` },
    signerInactive: { title: 'Server signer not active', message: (problem) => `Issuing and canceling invoices needs this studio's server signer, and it is not active: ${problem}. Its owner activates it in the dashboard; until then, go back and allow without invoice writes.` },
  },
}

const es: ConsentStrings = {
  lang: 'es',
  title: 'Permitir el acceso a su estudio',
  asks: (client, studio, resource) => `${client} solicita actuar en su nombre en ${studio} a través de ${resource}.`,
  returnsTo: (origin) => `Después de responder, volverá a ${origin}. Permítalo solo si empezó desde allí.`,
  yourStudio: 'su estudio',
  whereLegend: 'Dónde puede actuar',
  studio: 'Estudio',
  network: 'Red',
  chain: (name, chainId) => `${name} (cadena ${chainId})`,
  whatLegend: 'Qué puede hacer',
  writesUnticked: 'Todo lo que modifica su estudio está sin marcar: márquelo solo si esta aplicación debe hacerlo.',
  scopes: {
    'invoice:read': 'Ver sus facturas y sus enlaces de pago',
    'invoice:write': 'Emitir y anular facturas, y enviarlas por correo a sus clientes',
    'customer:read': 'Ver sus clientes',
    'customer:write': 'Crear y modificar clientes',
    'dashboard:read': 'Ver el saldo y las estadísticas de su estudio',
  },
  limitsLegend: 'Límites de las facturas que emite',
  limitsIntro: 'Nunca podrá emitir una factura por encima del importe máximo, ni más facturas que estas en 24 horas. Puede revocar el acceso en cualquier momento desde el panel.',
  maxInvoice: (symbol) => `Factura máxima, en ${symbol}`,
  perDay: 'Facturas en 24 horas',
  allow: 'Permitir',
  deny: 'Rechazar',
  language: 'Idioma',
  signIn: {
    expired: { title: 'Inicio de sesión caducado', message: 'Este inicio de sesión ya no es válido: vuelva a empezar.' },
    failed: { title: 'No se pudo iniciar sesión', message: 'El proveedor de identidad no inició su sesión: vuelva a empezar.' },
    unknownAccount: { title: 'Cuenta desconocida', message: 'Inicie sesión una vez en el panel primero, para que este servidor conozca su cuenta.' },
    nothingToDo: { title: 'Iniciar sesión', message: 'Aquí no hay nada que hacer: vuelva a empezar.' },
    refused: { title: 'Error al iniciar sesión', message: 'Este inicio de sesión no puede continuar: vuelva a empezar desde la aplicación que le trajo aquí.' },
    detail: 'Detalle técnico',
  },
  refusals: {
    noStudio: { title: 'Sin estudio', message: 'Esta cuenta aún no tiene ningún estudio: configure uno primero en el panel.' },
    chooseStudio: { title: 'Elija un estudio', message: 'Elija uno de sus estudios: vuelva atrás y selecciónelo.' },
    chooseNetwork: { title: 'Elija una red', message: (networks) => `Elija una de las redes de este servicio (${networks}): vuelva atrás y selecciónela.` },
    limitsNeeded: { title: 'Faltan los límites', message: 'Para emitir facturas hace falta un número de facturas al día (de 1 a 10000): vuelva atrás e indíquelo.' },
    largestInvoice: { title: 'Factura máxima', message: (symbol, decimals, most) => `La factura máxima es un importe en ${symbol} mayor que 0, como 1000 o 1000,50, con ${decimals} decimales como máximo y como mucho ${most} ${symbol}: vuelva atrás y corríjalo.` },
    signerInactive: { title: 'El firmante del servidor no está activo', message: (problem) => `Emitir y anular facturas requiere el firmante del servidor de este estudio, y no está activo: ${problem}. Su propietario lo activa en el panel; hasta entonces, vuelva atrás y permita el acceso sin escritura de facturas.` },
  },
}

const ptBR: ConsentStrings = {
  lang: 'pt-BR',
  title: 'Permitir acesso ao seu estúdio',
  asks: (client, studio, resource) => `${client} pede para agir em seu nome em ${studio} por meio de ${resource}.`,
  returnsTo: (origin) => `Depois de responder, você volta para ${origin}. Só permita se você começou por lá.`,
  yourStudio: 'seu estúdio',
  whereLegend: 'Onde pode agir',
  studio: 'Estúdio',
  network: 'Rede',
  chain: (name, chainId) => `${name} (cadeia ${chainId})`,
  whatLegend: 'O que pode fazer',
  writesUnticked: 'Tudo o que altera seu estúdio vem desmarcado: marque só se este app deve fazer isso.',
  scopes: {
    'invoice:read': 'Ver suas faturas e os links de pagamento',
    'invoice:write': 'Emitir e cancelar faturas, e enviá-las por e-mail aos seus clientes',
    'customer:read': 'Ver seus clientes',
    'customer:write': 'Criar e alterar clientes',
    'dashboard:read': 'Ver o saldo e as estatísticas do seu estúdio',
  },
  limitsLegend: 'Limites das faturas que ele emite',
  limitsIntro: 'Ele nunca poderá emitir uma fatura acima do valor máximo, nem mais faturas do que isto em 24 horas. Você pode revogar o acesso a qualquer momento no painel.',
  maxInvoice: (symbol) => `Maior fatura, em ${symbol}`,
  perDay: 'Faturas em 24 horas',
  allow: 'Permitir',
  deny: 'Recusar',
  language: 'Idioma',
  signIn: {
    expired: { title: 'Login expirado', message: 'Este login não é mais válido: comece de novo.' },
    failed: { title: 'Falha no login', message: 'O provedor de identidade não concluiu seu login: comece de novo.' },
    unknownAccount: { title: 'Conta desconhecida', message: 'Entre no painel uma vez primeiro, para que este servidor conheça sua conta.' },
    nothingToDo: { title: 'Entrar', message: 'Não há nada a fazer aqui: comece de novo.' },
    refused: { title: 'Erro no login', message: 'Este login não pode continuar: comece de novo pelo app que trouxe você até aqui.' },
    detail: 'Detalhe técnico',
  },
  refusals: {
    noStudio: { title: 'Nenhum estúdio', message: 'Esta conta ainda não tem estúdio: crie um primeiro no painel.' },
    chooseStudio: { title: 'Escolha um estúdio', message: 'Escolha um dos seus estúdios: volte e selecione-o.' },
    chooseNetwork: { title: 'Escolha uma rede', message: (networks) => `Escolha uma das redes deste serviço (${networks}): volte e selecione-a.` },
    limitsNeeded: { title: 'Faltam os limites', message: 'Para emitir faturas é preciso um número de faturas por dia (de 1 a 10000): volte e preencha-o.' },
    largestInvoice: { title: 'Maior fatura', message: (symbol, decimals, most) => `A maior fatura é um valor em ${symbol} maior que 0, como 1000 ou 1000,50, com no máximo ${decimals} casas decimais e no máximo ${most} ${symbol}: volte e corrija-o.` },
    signerInactive: { title: 'O assinante do servidor não está ativo', message: (problem) => `Emitir e cancelar faturas exige o assinante do servidor deste estúdio, e ele não está ativo: ${problem}. O dono o ativa no painel; até lá, volte e permita sem escrita de faturas.` },
  },
}

const fr: ConsentStrings = {
  lang: 'fr',
  title: 'Autoriser l’accès à votre studio',
  asks: (client, studio, resource) => `${client} demande à agir en votre nom sur ${studio} via ${resource}.`,
  returnsTo: (origin) => `Après votre réponse, vous revenez sur ${origin}. N’autorisez que si vous êtes parti de là.`,
  yourStudio: 'votre studio',
  whereLegend: 'Où il peut agir',
  studio: 'Studio',
  network: 'Réseau',
  chain: (name, chainId) => `${name} (chaîne ${chainId})`,
  whatLegend: 'Ce qu’il peut faire',
  writesUnticked: 'Tout ce qui modifie votre studio est décoché : cochez-le seulement si cette application doit le faire.',
  scopes: {
    'invoice:read': 'Consulter vos factures et leurs liens de paiement',
    'invoice:write': 'Émettre et annuler des factures, et les envoyer par e-mail à vos clients',
    'customer:read': 'Consulter vos clients',
    'customer:write': 'Créer et modifier des clients',
    'dashboard:read': 'Consulter le solde et les statistiques de votre studio',
  },
  limitsLegend: 'Limites des factures qu’il émet',
  limitsIntro: 'Il ne pourra jamais émettre une facture au-delà du montant maximal, ni plus de factures que ce nombre sur 24 heures. Vous pouvez révoquer l’accès à tout moment depuis le tableau de bord.',
  maxInvoice: (symbol) => `Facture maximale, en ${symbol}`,
  perDay: 'Factures sur 24 heures',
  allow: 'Autoriser',
  deny: 'Refuser',
  language: 'Langue',
  signIn: {
    expired: { title: 'Connexion expirée', message: 'Cette connexion n’est plus valable : recommencez.' },
    failed: { title: 'Échec de la connexion', message: 'Le fournisseur d’identité ne vous a pas connecté : recommencez.' },
    unknownAccount: { title: 'Compte inconnu', message: 'Connectez-vous d’abord une fois au tableau de bord, pour que ce serveur connaisse votre compte.' },
    nothingToDo: { title: 'Connexion', message: 'Il n’y a rien à faire ici : recommencez.' },
    refused: { title: 'Erreur de connexion', message: 'Cette connexion ne peut pas aboutir : recommencez depuis l’application qui vous a envoyé ici.' },
    detail: 'Détail technique',
  },
  refusals: {
    noStudio: { title: 'Aucun studio', message: 'Ce compte n’a pas encore de studio : créez-en un d’abord dans le tableau de bord.' },
    chooseStudio: { title: 'Choisissez un studio', message: 'Choisissez l’un de vos studios : revenez en arrière et sélectionnez-le.' },
    chooseNetwork: { title: 'Choisissez un réseau', message: (networks) => `Choisissez l’un des réseaux de ce service (${networks}) : revenez en arrière et sélectionnez-le.` },
    limitsNeeded: { title: 'Limites requises', message: 'Pour émettre des factures, il faut un nombre de factures par jour (de 1 à 10000) : revenez en arrière et indiquez-le.' },
    largestInvoice: { title: 'Facture maximale', message: (symbol, decimals, most) => `La facture maximale est un montant en ${symbol} supérieur à 0, comme 1000 ou 1000,50, avec au plus ${decimals} décimales et au plus ${most} ${symbol} : revenez en arrière et corrigez-le.` },
    signerInactive: { title: 'Le signataire du serveur n’est pas actif', message: (problem) => `Émettre et annuler des factures nécessite le signataire du serveur de ce studio, et il n’est pas actif : ${problem}. Son propriétaire l’active dans le tableau de bord ; d’ici là, revenez en arrière et autorisez sans l’écriture de factures.` },
  },
}

const de: ConsentStrings = {
  lang: 'de',
  title: 'Zugriff auf Ihr Studio erlauben',
  asks: (client, studio, resource) => `${client} möchte über ${resource} in Ihrem Namen in ${studio} handeln.`,
  returnsTo: (origin) => `Nach Ihrer Antwort kehren Sie zu ${origin} zurück. Erlauben Sie es nur, wenn Sie dort begonnen haben.`,
  yourStudio: 'Ihrem Studio',
  whereLegend: 'Wo es handeln darf',
  studio: 'Studio',
  network: 'Netzwerk',
  chain: (name, chainId) => `${name} (Chain ${chainId})`,
  whatLegend: 'Was es tun darf',
  writesUnticked: 'Alles, was Ihr Studio verändert, ist nicht angehakt: Haken Sie es nur an, wenn diese App es tun soll.',
  scopes: {
    'invoice:read': 'Ihre Rechnungen und deren Zahlungslinks lesen',
    'invoice:write': 'Rechnungen ausstellen und stornieren und sie Ihren Kunden per E-Mail senden',
    'customer:read': 'Ihre Kunden lesen',
    'customer:write': 'Kunden anlegen und ändern',
    'dashboard:read': 'Guthaben und Statistiken Ihres Studios lesen',
  },
  limitsLegend: 'Grenzen für die Rechnungen, die es ausstellt',
  limitsIntro: 'Es kann nie eine Rechnung über dem Höchstbetrag ausstellen und nie mehr Rechnungen als diese in 24 Stunden. Sie können den Zugriff jederzeit im Dashboard widerrufen.',
  maxInvoice: (symbol) => `Höchste Rechnung, in ${symbol}`,
  perDay: 'Rechnungen in 24 Stunden',
  allow: 'Erlauben',
  deny: 'Ablehnen',
  language: 'Sprache',
  signIn: {
    expired: { title: 'Anmeldung abgelaufen', message: 'Diese Anmeldung ist nicht mehr gültig: Beginnen Sie erneut.' },
    failed: { title: 'Anmeldung fehlgeschlagen', message: 'Der Identitätsanbieter hat Sie nicht angemeldet: Beginnen Sie erneut.' },
    unknownAccount: { title: 'Unbekanntes Konto', message: 'Melden Sie sich zuerst einmal im Dashboard an, damit dieser Server Ihr Konto kennt.' },
    nothingToDo: { title: 'Anmelden', message: 'Hier gibt es nichts zu tun: Beginnen Sie erneut.' },
    refused: { title: 'Anmeldefehler', message: 'Diese Anmeldung kann nicht fortgesetzt werden: Beginnen Sie erneut in der App, die Sie hierher geschickt hat.' },
    detail: 'Technische Angabe',
  },
  refusals: {
    noStudio: { title: 'Kein Studio', message: 'Dieses Konto hat noch kein Studio: Legen Sie zuerst eines im Dashboard an.' },
    chooseStudio: { title: 'Studio wählen', message: 'Wählen Sie eines Ihrer Studios: Gehen Sie zurück und wählen Sie es aus.' },
    chooseNetwork: { title: 'Netzwerk wählen', message: (networks) => `Wählen Sie eines der Netzwerke dieses Dienstes (${networks}): Gehen Sie zurück und wählen Sie es aus.` },
    limitsNeeded: { title: 'Grenzen fehlen', message: 'Zum Ausstellen von Rechnungen braucht es eine Zahl von Rechnungen pro Tag (1 bis 10000): Gehen Sie zurück und legen Sie sie fest.' },
    largestInvoice: { title: 'Höchste Rechnung', message: (symbol, decimals, most) => `Die höchste Rechnung ist ein Betrag in ${symbol} über 0, etwa 1000 oder 1000,50, mit höchstens ${decimals} Nachkommastellen und höchstens ${most} ${symbol}: Gehen Sie zurück und korrigieren Sie ihn.` },
    signerInactive: { title: 'Server-Signierer nicht aktiv', message: (problem) => `Das Ausstellen und Stornieren von Rechnungen braucht den Server-Signierer dieses Studios, und er ist nicht aktiv: ${problem}. Die Inhaberin oder der Inhaber aktiviert ihn im Dashboard; bis dahin gehen Sie zurück und erlauben Sie den Zugriff ohne Rechnungen auszustellen.` },
  },
}

const it: ConsentStrings = {
  lang: 'it',
  title: 'Consenti l’accesso al suo studio',
  asks: (client, studio, resource) => `${client} chiede di agire per suo conto su ${studio} tramite ${resource}.`,
  returnsTo: (origin) => `Dopo la risposta tornerà su ${origin}. Consenta solo se ha iniziato da lì.`,
  yourStudio: 'il suo studio',
  whereLegend: 'Dove può agire',
  studio: 'Studio',
  network: 'Rete',
  chain: (name, chainId) => `${name} (catena ${chainId})`,
  whatLegend: 'Cosa può fare',
  writesUnticked: 'Tutto ciò che modifica il suo studio non è selezionato: lo selezioni solo se questa app deve farlo.',
  scopes: {
    'invoice:read': 'Leggere le sue fatture e i relativi link di pagamento',
    'invoice:write': 'Emettere e annullare fatture e inviarle per e-mail ai suoi clienti',
    'customer:read': 'Leggere i suoi clienti',
    'customer:write': 'Creare e modificare clienti',
    'dashboard:read': 'Leggere il saldo e le statistiche del suo studio',
  },
  limitsLegend: 'Limiti sulle fatture che emette',
  limitsIntro: 'Non potrà mai emettere una fattura oltre l’importo massimo, né più fatture di queste in 24 ore. Può revocare l’accesso in qualsiasi momento dalla dashboard.',
  maxInvoice: (symbol) => `Fattura massima, in ${symbol}`,
  perDay: 'Fatture in 24 ore',
  allow: 'Consenti',
  deny: 'Nega',
  language: 'Lingua',
  signIn: {
    expired: { title: 'Accesso scaduto', message: 'Questo accesso non è più valido: ricominci.' },
    failed: { title: 'Accesso non riuscito', message: 'Il provider di identità non ha completato il suo accesso: ricominci.' },
    unknownAccount: { title: 'Account sconosciuto', message: 'Acceda prima una volta alla dashboard, così che questo server conosca il suo account.' },
    nothingToDo: { title: 'Accedi', message: 'Qui non c’è nulla da fare: ricominci.' },
    refused: { title: 'Errore di accesso', message: 'Questo accesso non può proseguire: ricominci dall’app che l’ha mandata qui.' },
    detail: 'Dettaglio tecnico',
  },
  refusals: {
    noStudio: { title: 'Nessuno studio', message: 'Questo account non ha ancora uno studio: ne crei prima uno nella dashboard.' },
    chooseStudio: { title: 'Scelga uno studio', message: 'Scelga uno dei suoi studi: torni indietro e lo selezioni.' },
    chooseNetwork: { title: 'Scelga una rete', message: (networks) => `Scelga una delle reti di questo servizio (${networks}): torni indietro e la selezioni.` },
    limitsNeeded: { title: 'Limiti mancanti', message: 'Per emettere fatture serve un numero di fatture al giorno (da 1 a 10000): torni indietro e lo imposti.' },
    largestInvoice: { title: 'Fattura massima', message: (symbol, decimals, most) => `La fattura massima è un importo in ${symbol} maggiore di 0, come 1000 o 1000,50, con al massimo ${decimals} decimali e al massimo ${most} ${symbol}: torni indietro e lo corregga.` },
    signerInactive: { title: 'Il firmatario del server non è attivo', message: (problem) => `Emettere e annullare fatture richiede il firmatario del server di questo studio, che non è attivo: ${problem}. Il titolare lo attiva nella dashboard; nel frattempo, torni indietro e consenta senza la scrittura di fatture.` },
  },
}

const nl: ConsentStrings = {
  lang: 'nl',
  title: 'Toegang tot uw studio toestaan',
  asks: (client, studio, resource) => `${client} vraagt namens u te handelen in ${studio} via ${resource}.`,
  returnsTo: (origin) => `Na uw antwoord gaat u terug naar ${origin}. Sta het alleen toe als u daar bent begonnen.`,
  yourStudio: 'uw studio',
  whereLegend: 'Waar het mag handelen',
  studio: 'Studio',
  network: 'Netwerk',
  chain: (name, chainId) => `${name} (chain-ID ${chainId})`,
  whatLegend: 'Wat het mag doen',
  writesUnticked: 'Alles wat uw studio verandert, staat uit: vink het alleen aan als deze app het moet doen.',
  scopes: {
    'invoice:read': 'Uw facturen en hun betaallinks lezen',
    'invoice:write': 'Facturen uitgeven en annuleren, en ze naar uw klanten mailen',
    'customer:read': 'Uw klanten lezen',
    'customer:write': 'Klanten aanmaken en wijzigen',
    'dashboard:read': 'Het saldo en de statistieken van uw studio lezen',
  },
  limitsLegend: 'Grenzen aan de facturen die het uitgeeft',
  limitsIntro: 'Het kan nooit een factuur boven het hoogste bedrag uitgeven, en nooit meer facturen dan dit in 24 uur. U kunt de toegang altijd intrekken in het dashboard.',
  maxInvoice: (symbol) => `Hoogste factuur, in ${symbol}`,
  perDay: 'Facturen per 24 uur',
  allow: 'Toestaan',
  deny: 'Weigeren',
  language: 'Taal',
  signIn: {
    expired: { title: 'Inloggen verlopen', message: 'Deze inlogpoging is niet meer geldig: begin opnieuw.' },
    failed: { title: 'Inloggen mislukt', message: 'De identiteitsprovider heeft u niet ingelogd: begin opnieuw.' },
    unknownAccount: { title: 'Onbekend account', message: 'Log eerst één keer in op het dashboard, zodat deze server uw account kent.' },
    nothingToDo: { title: 'Inloggen', message: 'Hier is niets te doen: begin opnieuw.' },
    refused: { title: 'Fout bij inloggen', message: 'Deze inlogpoging kan niet verder: begin opnieuw vanuit de app die u hierheen stuurde.' },
    detail: 'Technisch detail',
  },
  refusals: {
    noStudio: { title: 'Geen studio', message: 'Dit account heeft nog geen studio: maak er eerst een aan in het dashboard.' },
    chooseStudio: { title: 'Kies een studio', message: 'Kies een van uw studio’s: ga terug en selecteer die.' },
    chooseNetwork: { title: 'Kies een netwerk', message: (networks) => `Kies een van de netwerken van deze dienst (${networks}): ga terug en selecteer het.` },
    limitsNeeded: { title: 'Grenzen nodig', message: 'Om facturen uit te geven is een aantal facturen per dag (1 tot 10000) nodig: ga terug en vul het in.' },
    largestInvoice: { title: 'Hoogste factuur', message: (symbol, decimals, most) => `De hoogste factuur is een bedrag in ${symbol} boven 0, zoals 1000 of 1000,50, met hoogstens ${decimals} decimalen en hoogstens ${most} ${symbol}: ga terug en verbeter het.` },
    signerInactive: { title: 'Serverondertekenaar niet actief', message: (problem) => `Facturen uitgeven en annuleren vraagt de serverondertekenaar van deze studio, en die is niet actief: ${problem}. De eigenaar activeert hem in het dashboard; ga tot dan terug en sta toegang toe zonder facturen te schrijven.` },
  },
}

const pl: ConsentStrings = {
  lang: 'pl',
  title: 'Zezwól na dostęp do Twojego studia',
  asks: (client, studio, resource) => `${client} prosi o działanie w Twoim imieniu w ${studio} przez ${resource}.`,
  returnsTo: (origin) => `Po odpowiedzi wrócisz do ${origin}. Zezwól tylko, jeśli zaczynasz właśnie stamtąd.`,
  yourStudio: 'Twoim studiu',
  whereLegend: 'Gdzie może działać',
  studio: 'Studio',
  network: 'Sieć',
  chain: (name, chainId) => `${name} (łańcuch ${chainId})`,
  whatLegend: 'Co może robić',
  writesUnticked: 'Wszystko, co zmienia Twoje studio, jest odznaczone: zaznacz tylko to, co ta aplikacja ma robić.',
  scopes: {
    'invoice:read': 'Odczyt Twoich faktur i ich linków do płatności',
    'invoice:write': 'Wystawianie i anulowanie faktur oraz wysyłanie ich e-mailem do klientów',
    'customer:read': 'Odczyt Twoich klientów',
    'customer:write': 'Dodawanie i zmienianie klientów',
    'dashboard:read': 'Odczyt salda i statystyk Twojego studia',
  },
  limitsLegend: 'Limity wystawianych faktur',
  limitsIntro: 'Nigdy nie wystawi faktury powyżej najwyższej kwoty ani więcej faktur niż tyle w ciągu 24 godzin. Dostęp możesz cofnąć w każdej chwili w panelu.',
  maxInvoice: (symbol) => `Najwyższa faktura, w ${symbol}`,
  perDay: 'Faktury w ciągu 24 godzin',
  allow: 'Zezwól',
  deny: 'Odmów',
  language: 'Język',
  signIn: {
    expired: { title: 'Logowanie wygasło', message: 'To logowanie jest już nieaktualne: zacznij od nowa.' },
    failed: { title: 'Logowanie nie powiodło się', message: 'Dostawca tożsamości Cię nie zalogował: zacznij od nowa.' },
    unknownAccount: { title: 'Nieznane konto', message: 'Najpierw zaloguj się raz do panelu, aby ten serwer znał Twoje konto.' },
    nothingToDo: { title: 'Logowanie', message: 'Nie ma tu nic do zrobienia: zacznij od nowa.' },
    refused: { title: 'Błąd logowania', message: 'Tego logowania nie można kontynuować: zacznij od nowa w aplikacji, która Cię tu skierowała.' },
    detail: 'Szczegóły techniczne',
  },
  refusals: {
    noStudio: { title: 'Brak studia', message: 'To konto nie ma jeszcze studia: najpierw utwórz je w panelu.' },
    chooseStudio: { title: 'Wybierz studio', message: 'Wybierz jedno ze swoich studiów: wróć i zaznacz je.' },
    chooseNetwork: { title: 'Wybierz sieć', message: (networks) => `Wybierz jedną z sieci tej usługi (${networks}): wróć i zaznacz ją.` },
    limitsNeeded: { title: 'Brak limitów', message: 'Wystawianie faktur wymaga liczby faktur dziennie (od 1 do 10000): wróć i ustaw ją.' },
    largestInvoice: { title: 'Najwyższa faktura', message: (symbol, decimals, most) => `Najwyższa faktura to kwota w ${symbol} większa od 0, np. 1000 lub 1000,50, z najwyżej ${decimals} miejscami po przecinku i nie większa niż ${most} ${symbol}: wróć i popraw ją.` },
    signerInactive: { title: 'Podpisujący serwera nie jest aktywny', message: (problem) => `Wystawianie i anulowanie faktur wymaga podpisującego serwera tego studia, a nie jest on aktywny: ${problem}. Właściciel aktywuje go w panelu; do tego czasu wróć i zezwól bez zapisu faktur.` },
  },
}

const tr: ConsentStrings = {
  lang: 'tr',
  title: 'Stüdyonuza erişime izin verin',
  asks: (client, studio, resource) => `${client}, adınıza işlem yapmak istiyor. Stüdyo: ${studio}. Erişim yolu: ${resource}.`,
  returnsTo: (origin) => `Yanıtınızdan sonra şu adrese dönersiniz: ${origin}. Yalnızca oradan başladıysanız izin verin.`,
  yourStudio: 'stüdyonuz',
  whereLegend: 'Nerede işlem yapabilir',
  studio: 'Stüdyo',
  network: 'Ağ',
  chain: (name, chainId) => `${name} (zincir ${chainId})`,
  whatLegend: 'Neler yapabilir',
  writesUnticked: 'Stüdyonuzu değiştiren her şey işaretsizdir: yalnızca bu uygulamanın yapması gerekiyorsa işaretleyin.',
  scopes: {
    'invoice:read': 'Faturalarınızı ve ödeme bağlantılarını görmek',
    'invoice:write': 'Fatura düzenlemek, iptal etmek ve müşterilerinize e-postayla göndermek',
    'customer:read': 'Müşterilerinizi görmek',
    'customer:write': 'Müşteri oluşturmak ve değiştirmek',
    'dashboard:read': 'Stüdyonuzun bakiyesini ve istatistiklerini görmek',
  },
  limitsLegend: 'Düzenleyeceği faturaların sınırları',
  limitsIntro: 'En yüksek tutarın üzerinde fatura ya da 24 saat içinde bundan fazla fatura asla düzenleyemez. Erişimi panelden istediğiniz zaman kaldırabilirsiniz.',
  maxInvoice: (symbol) => `En yüksek fatura, ${symbol} olarak`,
  perDay: '24 saatteki fatura sayısı',
  allow: 'İzin ver',
  deny: 'Reddet',
  language: 'Dil',
  signIn: {
    expired: { title: 'Girişin süresi doldu', message: 'Bu giriş artık geçerli değil: yeniden başlayın.' },
    failed: { title: 'Giriş başarısız', message: 'Kimlik sağlayıcı oturumunuzu açmadı: yeniden başlayın.' },
    unknownAccount: { title: 'Bilinmeyen hesap', message: 'Bu sunucunun hesabınızı tanıması için önce bir kez panele giriş yapın.' },
    nothingToDo: { title: 'Giriş', message: 'Burada yapılacak bir şey yok: yeniden başlayın.' },
    refused: { title: 'Giriş hatası', message: 'Bu giriş devam edemiyor: sizi buraya gönderen uygulamadan yeniden başlayın.' },
    detail: 'Teknik ayrıntı',
  },
  refusals: {
    noStudio: { title: 'Stüdyo yok', message: 'Bu hesabın henüz stüdyosu yok: önce panelden bir stüdyo oluşturun.' },
    chooseStudio: { title: 'Stüdyo seçin', message: 'Stüdyolarınızdan birini seçin: geri dönüp seçiminizi yapın.' },
    chooseNetwork: { title: 'Ağ seçin', message: (networks) => `Bu hizmetin ağlarından birini seçin: ${networks}. Geri dönüp seçiminizi yapın.` },
    limitsNeeded: { title: 'Sınırlar gerekli', message: 'Fatura düzenlemek için günlük fatura sayısı (1 ile 10000 arası) gerekir: geri dönüp bunu girin.' },
    largestInvoice: { title: 'En yüksek fatura', message: (symbol, decimals, most) => `En yüksek fatura, 0’dan büyük bir ${symbol} tutarıdır (ör. 1000 veya 1000,50); en fazla ${decimals} ondalık basamak ve en fazla ${most} ${symbol} olabilir: geri dönüp düzeltin.` },
    signerInactive: { title: 'Sunucu imzalayıcısı etkin değil', message: (problem) => `Fatura düzenlemek ve iptal etmek için bu stüdyonun sunucu imzalayıcısı gerekir ve etkin değil. Durum: ${problem}. Sahibi bunu panelden etkinleştirir; o zamana kadar geri dönüp fatura yazma izni olmadan izin verin.` },
  },
}

const ar: ConsentStrings = {
  lang: 'ar',
  title: 'السماح بالوصول إلى الاستوديو الخاص بك',
  asks: (client, studio, resource) => `يطلب ${client} التصرف نيابةً عنك في ${studio} عبر ${resource}.`,
  returnsTo: (origin) => `بعد ردّك ستعود إلى ${origin}. لا تسمح إلا إذا بدأت من هناك.`,
  yourStudio: 'الاستوديو الخاص بك',
  whereLegend: 'أين يمكنه التصرف',
  studio: 'الاستوديو',
  network: 'الشبكة',
  chain: (name, chainId) => `${name} (السلسلة ${chainId})`,
  whatLegend: 'ما الذي يمكنه فعله',
  writesUnticked: 'كل ما يغيّر الاستوديو الخاص بك غير محدد: حدده فقط إذا كان على هذا التطبيق القيام به.',
  scopes: {
    'invoice:read': 'قراءة فواتيرك وروابط الدفع الخاصة بها',
    'invoice:write': 'إصدار الفواتير وإلغاؤها وإرسالها بالبريد الإلكتروني إلى عملائك',
    'customer:read': 'قراءة بيانات عملائك',
    'customer:write': 'إنشاء العملاء وتعديلهم',
    'dashboard:read': 'قراءة رصيد الاستوديو وإحصاءاته',
  },
  limitsLegend: 'حدود الفواتير التي يصدرها',
  limitsIntro: 'لا يمكنه أبدًا إصدار فاتورة تتجاوز أكبر مبلغ، ولا أكثر من هذا العدد من الفواتير خلال 24 ساعة. يمكنك إلغاء الوصول في أي وقت من لوحة التحكم.',
  maxInvoice: (symbol) => `أكبر فاتورة، بعملة \u2066${symbol}\u2069`,
  perDay: 'عدد الفواتير خلال 24 ساعة',
  allow: 'سماح',
  deny: 'رفض',
  language: 'اللغة',
  signIn: {
    expired: { title: 'انتهت صلاحية تسجيل الدخول', message: 'لم يعد تسجيل الدخول هذا ساريًا: ابدأ من جديد.' },
    failed: { title: 'تعذّر تسجيل الدخول', message: 'لم يُكمل موفّر الهوية تسجيل دخولك: ابدأ من جديد.' },
    unknownAccount: { title: 'حساب غير معروف', message: 'سجّل الدخول إلى لوحة التحكم مرة واحدة أولًا، ليتعرّف هذا الخادم على حسابك.' },
    nothingToDo: { title: 'تسجيل الدخول', message: 'لا شيء لفعله هنا: ابدأ من جديد.' },
    refused: { title: 'خطأ في تسجيل الدخول', message: 'لا يمكن متابعة تسجيل الدخول هذا: ابدأ من جديد من التطبيق الذي أرسلك إلى هنا.' },
    detail: 'تفاصيل تقنية',
  },
  refusals: {
    noStudio: { title: 'لا يوجد استوديو', message: 'لا يملك هذا الحساب استوديو بعد: أنشئ واحدًا أولًا من لوحة التحكم.' },
    chooseStudio: { title: 'اختر استوديو', message: 'اختر أحد الاستوديوهات الخاصة بك: ارجع واختره.' },
    chooseNetwork: { title: 'اختر شبكة', message: (networks) => `اختر إحدى شبكات هذه الخدمة (${networks}): ارجع واخترها.` },
    limitsNeeded: { title: 'الحدود مطلوبة', message: 'يتطلب إصدار الفواتير تحديد عدد الفواتير في اليوم (من 1 إلى 10000): ارجع وحدّده.' },
    largestInvoice: { title: 'أكبر فاتورة', message: (symbol, decimals, most) => `أكبر فاتورة مبلغ بعملة \u2066${symbol}\u2069 أكبر من 0، مثل \u20661000\u2069 أو \u20661000.50\u2069، بما لا يزيد على ${decimals} منازل عشرية ولا يتجاوز \u2066${most} ${symbol}\u2069: ارجع وصحّحه.` },
    signerInactive: { title: 'أداة التوقيع على الخادم غير نشطة', message: (problem) => `يتطلب إصدار الفواتير وإلغاؤها أداة التوقيع على خادم هذا الاستوديو، وهي غير نشطة: \u2068${problem}\u2069. يفعّلها المالك من لوحة التحكم؛ وإلى ذلك الحين ارجع واسمح دون كتابة الفواتير.` },
  },
}

const hi: ConsentStrings = {
  lang: 'hi',
  title: 'अपने स्टूडियो तक पहुँच की अनुमति दें',
  asks: (client, studio, resource) => `${client} ${resource} के ज़रिए ${studio} पर आपकी ओर से काम करने की अनुमति माँग रहा है।`,
  returnsTo: (origin) => `जवाब देने के बाद आप ${origin} पर लौटेंगे। अनुमति तभी दें जब आपने वहीं से शुरू किया हो।`,
  yourStudio: 'आपके स्टूडियो',
  whereLegend: 'यह कहाँ काम कर सकता है',
  studio: 'स्टूडियो',
  network: 'नेटवर्क',
  chain: (name, chainId) => `${name} (चेन ${chainId})`,
  whatLegend: 'यह क्या कर सकता है',
  writesUnticked: 'आपके स्टूडियो में बदलाव करने वाली हर चीज़ पर निशान नहीं लगा है: निशान तभी लगाएँ जब यह ऐप वह काम करे।',
  scopes: {
    'invoice:read': 'आपके इनवॉइस और उनके भुगतान लिंक देखना',
    'invoice:write': 'इनवॉइस जारी और रद्द करना, और उन्हें आपके ग्राहकों को ईमेल करना',
    'customer:read': 'आपके ग्राहकों को देखना',
    'customer:write': 'ग्राहक बनाना और बदलना',
    'dashboard:read': 'आपके स्टूडियो का बैलेंस और आँकड़े देखना',
  },
  limitsLegend: 'इसके जारी किए इनवॉइस की सीमाएँ',
  limitsIntro: 'यह कभी भी सबसे बड़ी राशि से ऊपर का इनवॉइस, या 24 घंटों में इससे ज़्यादा इनवॉइस जारी नहीं कर सकता। आप डैशबोर्ड में कभी भी पहुँच वापस ले सकते हैं।',
  maxInvoice: (symbol) => `सबसे बड़ा इनवॉइस, ${symbol} में`,
  perDay: '24 घंटों में इनवॉइस',
  allow: 'अनुमति दें',
  deny: 'अस्वीकार करें',
  language: 'भाषा',
  signIn: {
    expired: { title: 'साइन इन की अवधि समाप्त', message: 'यह साइन इन अब मान्य नहीं है: फिर से शुरू करें।' },
    failed: { title: 'साइन इन विफल', message: 'पहचान प्रदाता ने आपको साइन इन नहीं किया: फिर से शुरू करें।' },
    unknownAccount: { title: 'अज्ञात खाता', message: 'पहले एक बार डैशबोर्ड में साइन इन करें, ताकि यह सर्वर आपका खाता जान सके।' },
    nothingToDo: { title: 'साइन इन', message: 'यहाँ करने को कुछ नहीं है: फिर से शुरू करें।' },
    refused: { title: 'साइन इन में त्रुटि', message: 'यह साइन इन आगे नहीं बढ़ सकता: जिस ऐप ने आपको यहाँ भेजा, वहीं से फिर से शुरू करें।' },
    detail: 'तकनीकी विवरण',
  },
  refusals: {
    noStudio: { title: 'कोई स्टूडियो नहीं', message: 'इस खाते का अभी कोई स्टूडियो नहीं है: पहले डैशबोर्ड में एक बनाएँ।' },
    chooseStudio: { title: 'स्टूडियो चुनें', message: 'अपने स्टूडियो में से एक चुनें: वापस जाकर उसे चुनें।' },
    chooseNetwork: { title: 'नेटवर्क चुनें', message: (networks) => `इस सेवा के नेटवर्क में से एक चुनें (${networks}): वापस जाकर उसे चुनें।` },
    limitsNeeded: { title: 'सीमाएँ ज़रूरी हैं', message: 'इनवॉइस जारी करने के लिए दिन में इनवॉइस की संख्या (1 से 10000) चाहिए: वापस जाकर इसे भरें।' },
    largestInvoice: { title: 'सबसे बड़ा इनवॉइस', message: (symbol, decimals, most) => `सबसे बड़ा इनवॉइस ${symbol} में 0 से बड़ी राशि है, जैसे 1000 या 1000.50, जिसमें अधिकतम ${decimals} दशमलव अंक हों और जो ${most} ${symbol} से अधिक न हो: वापस जाकर इसे ठीक करें।` },
    signerInactive: { title: 'सर्वर साइनर सक्रिय नहीं है', message: (problem) => `इनवॉइस जारी और रद्द करने के लिए इस स्टूडियो का सर्वर साइनर चाहिए, और वह सक्रिय नहीं है: ${problem}। इसका मालिक इसे डैशबोर्ड में सक्रिय करता है; तब तक वापस जाएँ और इनवॉइस लिखने की अनुमति के बिना अनुमति दें।` },
  },
}

const id: ConsentStrings = {
  lang: 'id',
  title: 'Izinkan akses ke studio Anda',
  asks: (client, studio, resource) => `${client} meminta izin bertindak atas nama Anda di ${studio} melalui ${resource}.`,
  returnsTo: (origin) => `Setelah Anda menjawab, Anda kembali ke ${origin}. Izinkan hanya jika Anda memulainya dari sana.`,
  yourStudio: 'studio Anda',
  whereLegend: 'Tempat ia boleh bertindak',
  studio: 'Studio',
  network: 'Jaringan',
  chain: (name, chainId) => `${name} (ID chain ${chainId})`,
  whatLegend: 'Yang boleh ia lakukan',
  writesUnticked: 'Semua yang mengubah studio Anda tidak dicentang: centang hanya jika aplikasi ini memang perlu melakukannya.',
  scopes: {
    'invoice:read': 'Membaca faktur Anda dan tautan pembayarannya',
    'invoice:write': 'Menerbitkan dan membatalkan faktur, serta mengirimkannya lewat email ke pelanggan Anda',
    'customer:read': 'Membaca data pelanggan Anda',
    'customer:write': 'Membuat dan mengubah pelanggan',
    'dashboard:read': 'Membaca saldo dan statistik studio Anda',
  },
  limitsLegend: 'Batas faktur yang diterbitkannya',
  limitsIntro: 'Ia tidak akan pernah bisa menerbitkan faktur di atas jumlah terbesar, atau lebih banyak faktur dari ini dalam 24 jam. Anda dapat mencabut akses kapan saja di dasbor.',
  maxInvoice: (symbol) => `Faktur terbesar, dalam ${symbol}`,
  perDay: 'Faktur dalam 24 jam',
  allow: 'Izinkan',
  deny: 'Tolak',
  language: 'Bahasa',
  signIn: {
    expired: { title: 'Proses masuk kedaluwarsa', message: 'Proses masuk ini sudah tidak berlaku: mulai lagi.' },
    failed: { title: 'Gagal masuk', message: 'Penyedia identitas tidak menyelesaikan proses masuk Anda: mulai lagi.' },
    unknownAccount: { title: 'Akun tidak dikenal', message: 'Masuk ke dasbor sekali terlebih dahulu, agar server ini mengenali akun Anda.' },
    nothingToDo: { title: 'Masuk', message: 'Tidak ada yang perlu dilakukan di sini: mulai lagi.' },
    refused: { title: 'Kesalahan saat masuk', message: 'Proses masuk ini tidak dapat dilanjutkan: mulai lagi dari aplikasi yang mengirim Anda ke sini.' },
    detail: 'Detail teknis',
  },
  refusals: {
    noStudio: { title: 'Belum ada studio', message: 'Akun ini belum punya studio: buat dulu di dasbor.' },
    chooseStudio: { title: 'Pilih studio', message: 'Pilih salah satu studio Anda: kembali dan pilih.' },
    chooseNetwork: { title: 'Pilih jaringan', message: (networks) => `Pilih salah satu jaringan layanan ini (${networks}): kembali dan pilih.` },
    limitsNeeded: { title: 'Batas diperlukan', message: 'Menerbitkan faktur memerlukan jumlah faktur per hari (1 sampai 10000): kembali dan isi.' },
    largestInvoice: { title: 'Faktur terbesar', message: (symbol, decimals, most) => `Faktur terbesar adalah jumlah dalam ${symbol} di atas 0, misalnya 1000 atau 1000,50, dengan paling banyak ${decimals} desimal dan paling banyak ${most} ${symbol}: kembali dan perbaiki.` },
    signerInactive: { title: 'Penanda tangan server tidak aktif', message: (problem) => `Menerbitkan dan membatalkan faktur memerlukan penanda tangan server studio ini, dan penanda tangan itu tidak aktif: ${problem}. Pemiliknya mengaktifkannya di dasbor; sampai saat itu, kembali dan izinkan tanpa penulisan faktur.` },
  },
}

const vi: ConsentStrings = {
  lang: 'vi',
  title: 'Cho phép truy cập studio của bạn',
  asks: (client, studio, resource) => `${client} xin quyền thay mặt bạn thao tác trên ${studio} qua ${resource}.`,
  returnsTo: (origin) => `Sau khi trả lời, bạn sẽ quay lại ${origin}. Chỉ cho phép nếu bạn bắt đầu từ đó.`,
  yourStudio: 'studio của bạn',
  whereLegend: 'Nơi ứng dụng được thao tác',
  studio: 'Studio',
  network: 'Mạng',
  chain: (name, chainId) => `${name} (chuỗi ${chainId})`,
  whatLegend: 'Những việc ứng dụng được làm',
  writesUnticked: 'Mọi thứ làm thay đổi studio của bạn đều chưa được chọn: chỉ chọn nếu ứng dụng này cần làm việc đó.',
  scopes: {
    'invoice:read': 'Xem hóa đơn và liên kết thanh toán của bạn',
    'invoice:write': 'Phát hành và hủy hóa đơn, gửi email hóa đơn cho khách hàng của bạn',
    'customer:read': 'Xem khách hàng của bạn',
    'customer:write': 'Tạo và sửa khách hàng',
    'dashboard:read': 'Xem số dư và thống kê của studio',
  },
  limitsLegend: 'Giới hạn cho hóa đơn ứng dụng phát hành',
  limitsIntro: 'Ứng dụng không bao giờ được phát hành hóa đơn vượt số tiền lớn nhất, hay nhiều hóa đơn hơn mức này trong 24 giờ. Bạn có thể thu hồi quyền bất cứ lúc nào trong bảng điều khiển.',
  maxInvoice: (symbol) => `Hóa đơn lớn nhất, tính bằng ${symbol}`,
  perDay: 'Số hóa đơn trong 24 giờ',
  allow: 'Cho phép',
  deny: 'Từ chối',
  language: 'Ngôn ngữ',
  signIn: {
    expired: { title: 'Đăng nhập đã hết hạn', message: 'Lần đăng nhập này không còn hiệu lực: hãy bắt đầu lại.' },
    failed: { title: 'Đăng nhập thất bại', message: 'Nhà cung cấp danh tính chưa đăng nhập cho bạn: hãy bắt đầu lại.' },
    unknownAccount: { title: 'Tài khoản không xác định', message: 'Hãy đăng nhập vào bảng điều khiển một lần trước, để máy chủ này biết tài khoản của bạn.' },
    nothingToDo: { title: 'Đăng nhập', message: 'Không có gì để làm ở đây: hãy bắt đầu lại.' },
    refused: { title: 'Lỗi đăng nhập', message: 'Lần đăng nhập này không thể tiếp tục: hãy bắt đầu lại từ ứng dụng đã đưa bạn đến đây.' },
    detail: 'Chi tiết kỹ thuật',
  },
  refusals: {
    noStudio: { title: 'Chưa có studio', message: 'Tài khoản này chưa có studio: hãy tạo một studio trong bảng điều khiển trước.' },
    chooseStudio: { title: 'Chọn studio', message: 'Hãy chọn một studio của bạn: quay lại và chọn.' },
    chooseNetwork: { title: 'Chọn mạng', message: (networks) => `Hãy chọn một mạng của dịch vụ này (${networks}): quay lại và chọn.` },
    limitsNeeded: { title: 'Cần đặt giới hạn', message: 'Để phát hành hóa đơn, cần có số hóa đơn mỗi ngày (từ 1 đến 10000): hãy quay lại và điền.' },
    largestInvoice: { title: 'Hóa đơn lớn nhất', message: (symbol, decimals, most) => `Hóa đơn lớn nhất là một số tiền bằng ${symbol} lớn hơn 0, ví dụ 1000 hoặc 1000,50, có tối đa ${decimals} chữ số thập phân và không quá ${most} ${symbol}: hãy quay lại và sửa.` },
    signerInactive: { title: 'Trình ký máy chủ chưa hoạt động', message: (problem) => `Phát hành và hủy hóa đơn cần trình ký máy chủ của studio này, nhưng nó chưa hoạt động: ${problem}. Chủ studio kích hoạt nó trong bảng điều khiển; trong lúc chờ, hãy quay lại và cho phép mà không có quyền ghi hóa đơn.` },
  },
}

const ja: ConsentStrings = {
  lang: 'ja',
  title: 'スタジオへのアクセスを許可',
  asks: (client, studio, resource) => `${client} が ${resource} を通じて、${studio} であなたの代わりに操作することを求めています。`,
  returnsTo: (origin) => `回答すると ${origin} に戻ります。そこから始めた場合にのみ許可してください。`,
  yourStudio: 'あなたのスタジオ',
  whereLegend: '操作できる場所',
  studio: 'スタジオ',
  network: 'ネットワーク',
  chain: (name, chainId) => `${name}（チェーン ${chainId}）`,
  whatLegend: 'できること',
  writesUnticked: 'スタジオを変更する操作はチェックされていません。このアプリに行わせる場合にのみチェックしてください。',
  scopes: {
    'invoice:read': '請求書とその支払いリンクの閲覧',
    'invoice:write': '請求書の発行と取り消し、顧客へのメール送信',
    'customer:read': '顧客の閲覧',
    'customer:write': '顧客の作成と変更',
    'dashboard:read': 'スタジオの残高と統計の閲覧',
  },
  limitsLegend: '発行する請求書の上限',
  limitsIntro: '上限額を超える請求書や、24時間でこの件数を超える請求書は発行できません。アクセスはダッシュボードでいつでも取り消せます。',
  maxInvoice: (symbol) => `請求書の上限額（${symbol}）`,
  perDay: '24時間あたりの請求書の件数',
  allow: '許可',
  deny: '拒否',
  language: '言語',
  signIn: {
    expired: { title: 'サインインの有効期限切れ', message: 'このサインインは有効ではなくなりました。もう一度やり直してください。' },
    failed: { title: 'サインインに失敗しました', message: 'IDプロバイダーでサインインできませんでした。もう一度やり直してください。' },
    unknownAccount: { title: '不明なアカウント', message: 'このサーバーがアカウントを認識できるよう、先にダッシュボードに一度サインインしてください。' },
    nothingToDo: { title: 'サインイン', message: 'ここで行うことはありません。もう一度やり直してください。' },
    refused: { title: 'サインインエラー', message: 'このサインインは続行できません。ここに移動する前のアプリから、もう一度やり直してください。' },
    detail: '技術的な詳細',
  },
  refusals: {
    noStudio: { title: 'スタジオがありません', message: 'このアカウントにはまだスタジオがありません。先にダッシュボードで作成してください。' },
    chooseStudio: { title: 'スタジオを選択', message: 'あなたのスタジオから1つ選んでください。前の画面に戻って選択してください。' },
    chooseNetwork: { title: 'ネットワークを選択', message: (networks) => `このサービスのネットワーク（${networks}）から1つ選んでください。前の画面に戻って選択してください。` },
    limitsNeeded: { title: '上限の入力が必要です', message: '請求書を発行するには、1日あたりの件数（1〜10000）が必要です。前の画面に戻って入力してください。' },
    largestInvoice: { title: '請求書の上限額', message: (symbol, decimals, most) => `請求書の上限額は、0より大きい ${symbol} の金額です（例: 1000、1000.50）。小数点以下は ${decimals} 桁まで、上限は ${most} ${symbol} です。前の画面に戻って修正してください。` },
    signerInactive: { title: 'サーバー署名者が有効ではありません', message: (problem) => `請求書の発行と取り消しには、このスタジオのサーバー署名者が必要ですが、有効ではありません（${problem}）。オーナーがダッシュボードで有効にします。それまでは前の画面に戻り、請求書の書き込みなしで許可してください。` },
  },
}

const ko: ConsentStrings = {
  lang: 'ko',
  title: '스튜디오 접근 허용',
  asks: (client, studio, resource) => `${client}에서 ${resource}을(를) 통해 ${studio}에서 대신 작업할 권한을 요청합니다.`,
  returnsTo: (origin) => `응답하면 ${origin}(으)로 돌아갑니다. 그곳에서 시작한 경우에만 허용하세요.`,
  yourStudio: '내 스튜디오',
  whereLegend: '작업할 수 있는 곳',
  studio: '스튜디오',
  network: '네트워크',
  chain: (name, chainId) => `${name}(체인 ${chainId})`,
  whatLegend: '할 수 있는 일',
  writesUnticked: '스튜디오를 변경하는 항목은 선택되어 있지 않습니다. 이 앱이 해야 하는 경우에만 선택하세요.',
  scopes: {
    'invoice:read': '청구서와 결제 링크 보기',
    'invoice:write': '청구서 발행과 취소, 고객에게 이메일 보내기',
    'customer:read': '고객 보기',
    'customer:write': '고객 만들기와 변경',
    'dashboard:read': '스튜디오 잔액과 통계 보기',
  },
  limitsLegend: '발행하는 청구서의 한도',
  limitsIntro: '최대 금액을 넘는 청구서나, 24시간 동안 이보다 많은 청구서는 절대 발행할 수 없습니다. 대시보드에서 언제든지 접근 권한을 취소할 수 있습니다.',
  maxInvoice: (symbol) => `최대 청구 금액(${symbol})`,
  perDay: '24시간 동안의 청구서 수',
  allow: '허용',
  deny: '거부',
  language: '언어',
  signIn: {
    expired: { title: '로그인 만료', message: '이 로그인은 더 이상 유효하지 않습니다. 다시 시작하세요.' },
    failed: { title: '로그인 실패', message: 'ID 공급자가 로그인을 완료하지 않았습니다. 다시 시작하세요.' },
    unknownAccount: { title: '알 수 없는 계정', message: '이 서버가 계정을 알 수 있도록 먼저 대시보드에 한 번 로그인하세요.' },
    nothingToDo: { title: '로그인', message: '여기서 할 일이 없습니다. 다시 시작하세요.' },
    refused: { title: '로그인 오류', message: '이 로그인은 계속할 수 없습니다. 여기로 보낸 앱에서 다시 시작하세요.' },
    detail: '기술 정보',
  },
  refusals: {
    noStudio: { title: '스튜디오 없음', message: '이 계정에는 아직 스튜디오가 없습니다. 먼저 대시보드에서 만드세요.' },
    chooseStudio: { title: '스튜디오 선택', message: '내 스튜디오 중 하나를 선택하세요. 이전 화면으로 돌아가 선택하세요.' },
    chooseNetwork: { title: '네트워크 선택', message: (networks) => `이 서비스의 네트워크(${networks}) 중 하나를 선택하세요. 이전 화면으로 돌아가 선택하세요.` },
    limitsNeeded: { title: '한도 필요', message: '청구서를 발행하려면 하루 청구서 수(1~10000)가 필요합니다. 이전 화면으로 돌아가 입력하세요.' },
    largestInvoice: { title: '최대 청구 금액', message: (symbol, decimals, most) => `최대 청구 금액은 0보다 큰 ${symbol} 금액입니다(예: 1000, 1000.50). 소수점 이하는 ${decimals}자리까지, 최대 ${most} ${symbol}까지입니다. 이전 화면으로 돌아가 고치세요.` },
    signerInactive: { title: '서버 서명자가 활성 상태가 아님', message: (problem) => `청구서를 발행하고 취소하려면 이 스튜디오의 서버 서명자가 필요하지만, 활성 상태가 아닙니다(${problem}). 소유자가 대시보드에서 활성화합니다. 그때까지는 이전 화면으로 돌아가 청구서 쓰기 없이 허용하세요.` },
  },
}

const zhCN: ConsentStrings = {
  lang: 'zh-CN',
  title: '允许访问您的工作室',
  asks: (client, studio, resource) => `${client} 请求通过 ${resource} 代表您在 ${studio} 中操作。`,
  returnsTo: (origin) => `答复后，您将回到 ${origin}。只有当您是从那里开始的，才应允许。`,
  yourStudio: '您的工作室',
  whereLegend: '可操作的范围',
  studio: '工作室',
  network: '网络',
  chain: (name, chainId) => `${name}（链 ${chainId}）`,
  whatLegend: '可执行的操作',
  writesUnticked: '所有会更改您工作室的操作都未勾选：只有在此应用确实需要时才勾选。',
  scopes: {
    'invoice:read': '查看您的发票及其付款链接',
    'invoice:write': '开具和作废发票，并通过邮件发送给您的客户',
    'customer:read': '查看您的客户',
    'customer:write': '创建和修改客户',
    'dashboard:read': '查看您工作室的余额和统计数据',
  },
  limitsLegend: '其开具发票的限额',
  limitsIntro: '它永远不能开具超过最高金额的发票，也不能在任意 24 小时内开具超过此数量的发票。您可以随时在控制台中撤销访问权限。',
  maxInvoice: (symbol) => `单张发票最高金额（${symbol}）`,
  perDay: '任意 24 小时内的发票数',
  allow: '允许',
  deny: '拒绝',
  language: '语言',
  signIn: {
    expired: { title: '登录已过期', message: '此登录已失效：请重新开始。' },
    failed: { title: '登录失败', message: '身份提供方未能让您登录：请重新开始。' },
    unknownAccount: { title: '未知账户', message: '请先登录一次控制台，让此服务器知道您的账户。' },
    nothingToDo: { title: '登录', message: '这里没有需要做的事：请重新开始。' },
    refused: { title: '登录出错', message: '此登录无法继续：请从将您带到这里的应用重新开始。' },
    detail: '技术详情',
  },
  refusals: {
    noStudio: { title: '没有工作室', message: '此账户还没有工作室：请先在控制台中创建一个。' },
    chooseStudio: { title: '请选择工作室', message: '请选择您的一个工作室：返回并选择。' },
    chooseNetwork: { title: '请选择网络', message: (networks) => `请选择本服务的一个网络（${networks}）：返回并选择。` },
    limitsNeeded: { title: '需要设置限额', message: '开具发票需要设置每天的发票数（1 到 10000）：请返回并填写。' },
    largestInvoice: { title: '单张发票最高金额', message: (symbol, decimals, most) => `单张发票最高金额是大于 0 的 ${symbol} 金额，例如 1000 或 1000.50，最多 ${decimals} 位小数，且不超过 ${most} ${symbol}：请返回修改。` },
    signerInactive: { title: '服务器签名器未激活', message: (problem) => `开具和作废发票需要此工作室的服务器签名器，但它未激活：${problem}。所有者可在控制台中激活；在此之前，请返回并在不含发票写入权限的情况下授权。` },
  },
}

export const consentCatalogs: Record<Language, ConsentStrings> = { en, es, 'pt-BR': ptBR, fr, de, it, nl, pl, tr, ar, hi, id, vi, ja, ko, 'zh-CN': zhCN }

/**
 * The consent page's language: the one the person picked with the page's switch (`?lang=`), else the
 * client's `ui_locales` (OpenID Connect: the languages the app asks the page in, space-separated),
 * else the browser's Accept-Language, else English.
 */
export function consentLanguage({ chosen, uiLocales, acceptLanguageHeader }: { chosen?: string | null | undefined; uiLocales?: unknown; acceptLanguageHeader?: string | undefined }): Language {
  const picked = chosen ? languageOf(chosen) : null
  if (picked) return picked
  const asked = typeof uiLocales === 'string' ? uiLocales.split(/\s+/).filter(Boolean) : []
  return negotiateLanguage([...asked, ...acceptLanguage(acceptLanguageHeader)]).language
}
