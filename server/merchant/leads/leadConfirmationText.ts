import type { Language } from '../../../src/ui/languages'

/** The enquirer's confirmation, as a subject and its paragraphs. */
export type LeadConfirmationText = { subject: string; paragraphs: readonly string[] }

/**
 * The confirmation in the product's 16 languages. It says the same in each: the enquiry reached the
 * team, who answer within about two working days; nothing more to do, no account, nothing charged;
 * and, for the stranger whose address someone else typed, that the mail may be ignored. It names and
 * quotes nothing the form carried (leadMail.ts says why), so the words here are all it holds.
 */
export const leadConfirmationTexts: Record<Language, LeadConfirmationText> = {
  en: {
    subject: 'We have your enquiry',
    paragraphs: [
      'Hello,',
      'Thank you for writing to us. Your enquiry has reached our team, and one of us will reply to this address, usually within two working days.',
      'There is nothing more you need to do. No account has been opened for you, and nothing will be charged.',
      'If you did not send an enquiry, someone else typed your address: you can ignore this mail, and we will not write again unless you answer.',
    ],
  },
  es: {
    subject: 'Hemos recibido su consulta',
    paragraphs: [
      'Hola:',
      'Gracias por escribirnos. Su consulta ha llegado a nuestro equipo y una persona del equipo le responderá a esta dirección, normalmente en un plazo de dos días hábiles.',
      'No tiene que hacer nada más. No se le ha abierto ninguna cuenta y no se le cobrará nada.',
      'Si usted no envió ninguna consulta, otra persona escribió su dirección: puede ignorar este correo y no volveremos a escribirle a menos que responda.',
    ],
  },
  'pt-BR': {
    subject: 'Recebemos sua solicitação',
    paragraphs: [
      'Olá,',
      'Obrigado por entrar em contato. Sua solicitação chegou à nossa equipe, e alguém de nós responderá para este endereço, normalmente em até dois dias úteis.',
      'Você não precisa fazer mais nada. Nenhuma conta foi aberta em seu nome, e nada será cobrado.',
      'Se você não enviou nenhuma solicitação, outra pessoa digitou seu endereço: pode ignorar este e-mail, e não voltaremos a escrever, a menos que você responda.',
    ],
  },
  fr: {
    subject: 'Nous avons bien reçu votre demande',
    paragraphs: [
      'Bonjour,',
      'Merci de nous avoir écrit. Votre demande est bien parvenue à notre équipe, et l’un de nous vous répondra à cette adresse, généralement sous deux jours ouvrés.',
      'Vous n’avez rien d’autre à faire. Aucun compte n’a été ouvert à votre nom, et rien ne vous sera facturé.',
      'Si vous n’avez envoyé aucune demande, quelqu’un d’autre a saisi votre adresse\u00a0: vous pouvez ignorer ce message, et nous ne vous écrirons plus, sauf si vous répondez.',
    ],
  },
  de: {
    subject: 'Wir haben Ihre Anfrage erhalten',
    paragraphs: [
      'Guten Tag,',
      'vielen Dank für Ihre Nachricht. Ihre Anfrage ist bei unserem Team angekommen, und jemand von uns antwortet Ihnen an diese Adresse, in der Regel innerhalb von zwei Werktagen.',
      'Sie müssen nichts weiter tun. Es wurde kein Konto für Sie eröffnet, und es wird Ihnen nichts berechnet.',
      'Falls Sie keine Anfrage gesendet haben, hat jemand anderes Ihre Adresse eingegeben: Sie können diese E-Mail ignorieren, und wir schreiben Ihnen nicht wieder, solange Sie nicht antworten.',
    ],
  },
  it: {
    subject: 'Abbiamo ricevuto la sua richiesta',
    paragraphs: [
      'Buongiorno,',
      'grazie per averci scritto. La sua richiesta è arrivata al nostro team e uno di noi le risponderà a questo indirizzo, di solito entro due giorni lavorativi.',
      'Non deve fare nient’altro. Non è stato aperto alcun account a suo nome e non le verrà addebitato nulla.',
      'Se non ha inviato alcuna richiesta, qualcun altro ha digitato il suo indirizzo: può ignorare questa email e non le scriveremo più, a meno che non risponda.',
    ],
  },
  nl: {
    subject: 'We hebben uw aanvraag ontvangen',
    paragraphs: [
      'Goedendag,',
      'Bedankt voor uw bericht. Uw aanvraag is bij ons team aangekomen en een van ons antwoordt u op dit adres, meestal binnen twee werkdagen.',
      'U hoeft verder niets te doen. Er is geen account voor u geopend en er wordt niets in rekening gebracht.',
      'Hebt u geen aanvraag gestuurd, dan heeft iemand anders uw adres ingevuld: u kunt deze e-mail negeren en we schrijven u niet opnieuw, tenzij u antwoordt.',
    ],
  },
  pl: {
    subject: 'Otrzymaliśmy Twoje zapytanie',
    paragraphs: [
      'Dzień dobry,',
      'dziękujemy za wiadomość. Twoje zapytanie dotarło do naszego zespołu i ktoś z nas odpowie na ten adres, zwykle w ciągu dwóch dni roboczych.',
      'Nie musisz nic więcej robić. Nie założyliśmy dla Ciebie żadnego konta i nie naliczymy żadnych opłat.',
      'Jeśli zapytanie nie pochodzi od Ciebie, ktoś inny wpisał Twój adres: możesz zignorować tę wiadomość, a my nie napiszemy ponownie, chyba że odpowiesz.',
    ],
  },
  tr: {
    subject: 'Talebinizi aldık',
    paragraphs: [
      'Merhaba,',
      'Bize yazdığınız için teşekkür ederiz. Talebiniz ekibimize ulaştı; ekibimizden biri genellikle iki iş günü içinde bu adrese yanıt verecek.',
      'Başka bir şey yapmanıza gerek yok. Sizin için hesap açılmadı ve sizden hiçbir ücret alınmayacak.',
      'Talep göndermediyseniz adresinizi başka biri yazmış demektir: bu e-postayı yok sayabilirsiniz; siz yanıt vermedikçe size yeniden yazmayacağız.',
    ],
  },
  ar: {
    subject: 'تلقّينا استفسارك',
    paragraphs: [
      'مرحبًا،',
      'شكرًا لتواصلك معنا. وصل استفسارك إلى فريقنا، وسيردّ عليك أحدنا على هذا العنوان، عادةً خلال يومَي عمل.',
      'لا يلزمك فعل أي شيء آخر. لم يُفتح لك أي حساب، ولن تُفرض عليك أي رسوم.',
      'إذا لم ترسل أي استفسار، فقد كتب شخص آخر عنوانك: يمكنك تجاهل هذه الرسالة، ولن نراسلك مجددًا ما لم تردّ.',
    ],
  },
  hi: {
    subject: 'हमें आपकी पूछताछ मिल गई है',
    paragraphs: [
      'नमस्ते,',
      'हमें लिखने के लिए धन्यवाद। आपकी पूछताछ हमारी टीम तक पहुँच गई है, और हम में से कोई इसी पते पर आपको जवाब देगा, आम तौर पर दो कार्यदिवसों के भीतर।',
      'आपको और कुछ करने की ज़रूरत नहीं है। आपके लिए कोई खाता नहीं खोला गया है, और आपसे कोई शुल्क नहीं लिया जाएगा।',
      'अगर आपने कोई पूछताछ नहीं भेजी, तो किसी और ने आपका पता लिखा है: आप इस ईमेल को अनदेखा कर सकते हैं, और जब तक आप जवाब नहीं देते, हम आपको दोबारा नहीं लिखेंगे।',
    ],
  },
  id: {
    subject: 'Kami telah menerima pertanyaan Anda',
    paragraphs: [
      'Halo,',
      'Terima kasih telah menghubungi kami. Pertanyaan Anda sudah sampai ke tim kami, dan salah satu dari kami akan membalas ke alamat ini, biasanya dalam dua hari kerja.',
      'Anda tidak perlu melakukan apa pun lagi. Tidak ada akun yang dibuka untuk Anda, dan tidak ada biaya yang ditagihkan.',
      'Jika Anda tidak mengirim pertanyaan, orang lain telah mengetik alamat Anda: Anda dapat mengabaikan email ini, dan kami tidak akan menulis lagi kecuali Anda membalas.',
    ],
  },
  vi: {
    subject: 'Chúng tôi đã nhận được yêu cầu của bạn',
    paragraphs: [
      'Xin chào,',
      'Cảm ơn bạn đã liên hệ với chúng tôi. Yêu cầu của bạn đã đến với đội ngũ của chúng tôi, và một người trong chúng tôi sẽ trả lời qua địa chỉ này, thường trong vòng hai ngày làm việc.',
      'Bạn không cần làm gì thêm. Không có tài khoản nào được mở cho bạn, và bạn sẽ không bị tính phí.',
      'Nếu bạn không gửi yêu cầu nào, thì ai đó đã nhập địa chỉ của bạn: bạn có thể bỏ qua email này, và chúng tôi sẽ không viết thư nữa trừ khi bạn trả lời.',
    ],
  },
  ja: {
    subject: 'お問い合わせを受け付けました',
    paragraphs: [
      'お問い合わせいただき、ありがとうございます。',
      'お問い合わせは担当チームに届きました。通常2営業日以内に、担当者からこのアドレスにご返信いたします。',
      'これ以上のお手続きは必要ありません。アカウントは開設されておらず、料金が請求されることもありません。',
      'お問い合わせに心当たりがない場合は、ほかの方がお客様のアドレスを入力したものと思われます。このメールは無視していただいて構いません。ご返信がない限り、こちらから再度ご連絡することはありません。',
    ],
  },
  ko: {
    subject: '문의가 접수되었습니다',
    paragraphs: [
      '안녕하세요.',
      '문의해 주셔서 감사합니다. 문의 내용이 저희 팀에 전달되었으며, 보통 영업일 기준 2일 이내에 담당자가 이 주소로 답장을 드립니다.',
      '더 하실 일은 없습니다. 계정은 개설되지 않았으며, 어떤 요금도 청구되지 않습니다.',
      '문의를 보내신 적이 없다면 다른 사람이 이 주소를 입력한 것입니다. 이 메일은 무시하셔도 되며, 답장을 주시지 않는 한 다시 연락드리지 않습니다.',
    ],
  },
  'zh-CN': {
    subject: '我们已收到您的咨询',
    paragraphs: [
      '您好：',
      '感谢您与我们联系。您的咨询已送达我们的团队，我们会通过此邮箱回复您，通常在两个工作日内。',
      '您无需再做任何操作。我们没有为您开设账户，也不会收取任何费用。',
      '如果您没有发送过咨询，说明有人填写了您的邮箱地址：您可以忽略此邮件；除非您回复，否则我们不会再联系您。',
    ],
  },
}
